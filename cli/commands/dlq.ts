import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { originalHeaders, type StoredDeadLetter } from '../../runtime/dead-letters.ts';
import { SkryaError } from '../../runtime/errors.ts';
import type { KafkaPort } from '../../runtime/kafka-port.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import { acquireRedriveLock, letterAddress, letterDetail, type LetterFilter, letterJson, letterLine, matchesFilter, openRedriveLedger, parseLetterAddress, parseLetterFilter, planRedrive, type RedrivePlan } from '../../services/dlq/index.ts';

/**
 * `skrya dlq`: list, show and re-drive dead letters. Reading uses a throwaway consumer group that
 * never commits, so no service is disturbed. Re-driven letters are recorded in
 * <data-root>/.dlq/<dead-letter topic>.redriven.jsonl, so a letter is re-driven once.
 */
export interface DlqDeps {
  port: KafkaPort;
  dataRoot: string;
  write: (line: string) => void;
  now?: () => Date;
}

function deadLetterTopic(deps: DlqDeps): string {
  return deps.port.topicName('dead-letters');
}

function parseLimit(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw new SkryaError('INVALID_INPUT', `--limit ${JSON.stringify(text)} is not a positive whole number`);
  return Number(text);
}

export async function runDlqList(deps: DlqDeps, options: LetterFilter & { limit?: string | undefined; json?: boolean | undefined }): Promise<StoredDeadLetter[]> {
  const filter = parseLetterFilter(options);
  const limit = parseLimit(options.limit);
  const ledger = openRedriveLedger(deps.dataRoot, deadLetterTopic(deps));
  const { letters, unreadable } = await deps.port.readDeadLetters();
  const matching = letters.filter((stored) => matchesFilter(stored, filter));
  // The newest are what an operator looks at first; they still print in offset order.
  const shown = limit === null ? matching : matching.slice(-limit);
  if (options.json) {
    deps.write(JSON.stringify({ letters: shown.map((stored) => letterJson(stored, ledger.entryFor(stored))), matching: matching.length, unreadable }, null, 2));
    return shown;
  }
  if (shown.length === 0 && unreadable.length === 0) deps.write(`(no ${letters.length === 0 ? '' : 'matching '}dead letters on ${deadLetterTopic(deps)})`);
  for (const stored of shown) deps.write(letterLine(stored, ledger.entryFor(stored) !== undefined));
  for (const entry of unreadable) deps.write(`${entry.partition}:${entry.offset}  (unreadable letter: ${entry.code}) ${entry.message}`);
  if (shown.length < matching.length) deps.write(`(${shown.length} newest of ${matching.length} matching letters)`);
  return shown;
}

export async function runDlqShow(deps: DlqDeps, address: string): Promise<StoredDeadLetter> {
  const at = parseLetterAddress(address);
  const { letters, unreadable } = await deps.port.readDeadLetters({ at });
  const [stored] = letters;
  if (!stored) {
    const broken = unreadable[0];
    if (broken) throw new SkryaError('SCHEMA_INVALID', `letter ${address} cannot be decoded: ${broken.code} ${broken.message}`);
    throw new SkryaError('INVALID_INPUT', `no letter at ${address} on ${deadLetterTopic(deps)}: run \`skrya dlq list\` for the addresses`);
  }
  let headers: Record<string, string> | null = null;
  try {
    headers = originalHeaders(stored.letter);
  } catch {
    headers = null;
  }
  deps.write(letterDetail(stored, headers, openRedriveLedger(deps.dataRoot, deadLetterTopic(deps)).entryFor(stored)).trimEnd());
  return stored;
}

export async function runDlqReplay(deps: DlqDeps, options: LetterFilter & { dryRun?: boolean | undefined }): Promise<RedrivePlan> {
  const filter = parseLetterFilter(options);
  const topic = deadLetterTopic(deps);
  const now = deps.now ?? (() => new Date());
  const release = options.dryRun ? () => {} : acquireRedriveLock(deps.dataRoot, topic);
  try {
    const ledger = openRedriveLedger(deps.dataRoot, topic);
    const { letters } = await deps.port.readDeadLetters();
    const plan = planRedrive(letters, { filter, naming: deps.port.naming, isRedriven: (stored) => ledger.entryFor(stored) !== undefined });
    for (const { stored, reason } of plan.skipped) if (reason !== 'already-redriven') deps.write(`skipped ${letterAddress(stored)} (${stored.letter.reason_code}): ${reason}`);
    if (options.dryRun) {
      for (const stored of plan.redrive) deps.write(`would re-drive ${letterAddress(stored)} (${stored.letter.reason_code}, ${stored.letter.stage}) to ${stored.letter.source_topic}`);
    } else {
      await deps.port.redriveDeadLetters(plan.redrive, (stored, result) => {
        ledger.append(stored, result, now());
        deps.write(`re-drove ${letterAddress(stored)} (${stored.letter.reason_code}, ${stored.letter.stage}) to ${result.topic}[${result.partition}]@${result.offset}`);
      });
    }
    const already = plan.skipped.filter(({ reason }) => reason === 'already-redriven').length;
    deps.write(`${plan.redrive.length} ${options.dryRun ? 'to re-drive' : 're-driven'}, ${already} already re-driven, ${plan.skipped.length - already} skipped${options.dryRun ? '' : `; recorded in ${ledger.file}`}`);
    return plan;
  } finally {
    release();
  }
}

async function cliDeps(): Promise<DlqDeps> {
  const config = loadConfig();
  const pipeline = await connectPipeline({ config, clientId: 'skrya-dlq' });
  return { port: pipeline.port, dataRoot: path.resolve(config.SKRYA_DATA_ROOT), write: (line) => process.stdout.write(`${line}\n`) };
}

export function registerDlqCommand(program: Command): void {
  const dlq = program.command('dlq');

  dlq
    .command('list')
    .description('one line per letter: address, failed_at, stage, reason code, source topic[partition]@offset, tenant, error')
    .option('--tenant <tenant>', 'only letters of this tenant')
    .option('--stage <stage>', 'only letters from this stage, e.g. scorer')
    .option('--code <code>', 'only letters with this reason code, e.g. SCHEMA_INVALID')
    .option('--limit <n>', 'only the newest n matching letters')
    .option('--json', 'print the letters as JSON (without the original bytes)')
    .action(async (options: LetterFilter & { limit?: string; json?: boolean }) => {
      parseLetterFilter(options);
      parseLimit(options.limit);
      await runDlqList(await cliDeps(), options);
    });

  dlq
    .command('show')
    .argument('<address>', '<partition>:<offset> as `dlq list` prints it')
    .description('one letter in full: fields, original key and headers, the value as hex and as UTF-8')
    .action(async (address: string) => {
      parseLetterAddress(address);
      await runDlqShow(await cliDeps(), address);
    });

  dlq
    .command('replay')
    .description('produce the original key, value and headers of each matching letter back to its source topic (each letter once)')
    .option('--tenant <tenant>', 'only letters of this tenant')
    .option('--stage <stage>', 'only letters from this stage')
    .option('--code <code>', 'only letters with this reason code')
    .option('--dry-run', 'list what would be re-driven, send nothing')
    .action(async (options: LetterFilter & { dryRun?: boolean }) => {
      parseLetterFilter(options);
      await runDlqReplay(await cliDeps(), options);
    });
}
