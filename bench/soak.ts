/**
 * `npm run soak [-- --topics=N] [--runs-per-topic=N] [--kills-per-service=N] [--seed=N]`
 *
 * The long version of test/faults/kill-services.int.test.ts, not run in CI: scorer, collector and
 * sink as separate `skrya run` processes, each SIGKILLed many times at random moments while runs are
 * published, then every run's normalized/<timestamp>.json is checked item by item. Runs against the
 * broker and registry of the environment (SKRYA_KAFKA_BROKERS, SKRYA_REGISTRY_URL; the local stack by
 * default) under a fresh topic prefix and data root, both removed afterwards. Prints a summary and
 * exits 1 when anything was lost, duplicated, missing or extra.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../runtime/config.ts';
import { SkryaError } from '../runtime/errors.ts';
import { createLogger } from '../runtime/logger.ts';
import { connectPipeline } from '../runtime/pipeline.ts';
import { runKillCampaign, type KillCampaignResult } from '../test/support/fault-campaign.ts';

interface SoakOptions {
  topics: number;
  runsPerTopic: number;
  killsPerService: number;
  seed: number;
}

const DEFAULTS: SoakOptions = { topics: 8, runsPerTopic: 20, killsPerService: 12, seed: Date.now() % 2_147_483_647 };
const NAMES: Record<string, keyof SoakOptions> = { topics: 'topics', 'runs-per-topic': 'runsPerTopic', 'kills-per-service': 'killsPerService', seed: 'seed' };

export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  const options = { ...DEFAULTS };
  for (const argument of argv) {
    const match = /^--([a-z-]+)=(\d+)$/.exec(argument);
    const name = match ? NAMES[match[1]!] : undefined;
    if (!match || !name) throw new SkryaError('INVALID_INPUT', `unknown argument ${JSON.stringify(argument)}; use --${Object.keys(NAMES).join('=N, --')}=N`);
    const value = Number(match[2]);
    if (name !== 'seed' && value < 1) throw new SkryaError('INVALID_INPUT', `--${match[1]} must be at least 1`);
    options[name] = value;
  }
  return options;
}

function summary(options: SoakOptions, result: KillCampaignResult): string {
  const { verdict } = result;
  const byService = new Map<string, { kills: number; midStream: number }>();
  for (const kill of result.kills) {
    const entry = byService.get(kill.service) ?? { kills: 0, midStream: 0 };
    entry.kills += 1;
    if (kill.lagAtKill > 0) entry.midStream += 1;
    byService.set(kill.service, entry);
  }
  return [
    `soak, seed ${options.seed}: ${verdict.runs} runs over ${options.topics} topics in ${result.steps} steps`,
    `kills: ${[...byService].map(([service, { kills, midStream }]) => `${service} ${kills} (${midStream} with uncommitted input)`).join(', ')}`,
    `redelivered by successors: ${result.redelivered.scoredResults} scored messages, ${result.redelivered.ingestBatches} batches`,
    `files: ${verdict.exact}/${verdict.runs} runs exact; ${verdict.lostItems} items lost, ${verdict.duplicatedItems} duplicated; ${verdict.missingRuns.length} runs missing, ${verdict.wrongRuns.length} wrong, ${verdict.strayFiles.length} stray files`,
    `dead letters: ${result.deadLetters}; final shutdown: ${Object.entries(result.exitCodes).map(([service, code]) => `${service} ${code}`).join(', ')}`,
    `time: ${Math.round(result.seconds.publishAndKill)} s publishing and killing, ${Math.round(result.seconds.settle)} s settling, ${Math.round(result.seconds.total)} s in all`,
    ...verdict.wrongRuns.slice(0, 10).map((run) => `  wrong: ${run.runId}: ${run.missing.length} missing, ${run.duplicated.length} duplicated, ${run.unexpected.length} unexpected, complete=${run.complete}`),
  ].join('\n');
}

async function main(): Promise<void> {
  const options = parseSoakOptions(process.argv.slice(2));
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-soak-'));
  const logDir = path.join(dataRoot, '..', `${path.basename(dataRoot)}-logs`);
  const config = loadConfig({ ...process.env, SKRYA_TOPIC_PREFIX: `soak.${randomBytes(4).toString('hex')}.`, SKRYA_DATA_ROOT: dataRoot, SKRYA_LOG_LEVEL: 'warn' });
  const pipeline = await connectPipeline({ config, logger: createLogger({ level: 'warn', name: 'soak' }), clientId: 'soak' });
  let failed = true;
  try {
    const result = await runKillCampaign({
      pipeline,
      shape: { tenant: 'acme', topics: options.topics, runsPerTopic: options.runsPerTopic, responsesPerRun: 2, itemsPerResponse: 5, label: `soak${options.seed.toString(36)}` },
      killsPerService: options.killsPerService,
      seed: options.seed,
      logDir,
      settleTimeoutMs: 300_000,
      report: (line) => process.stderr.write(`[soak] ${line}\n`),
    });
    process.stdout.write(`${summary(options, result)}\n`);
    const { verdict } = result;
    failed = verdict.exact !== verdict.runs || verdict.strayFiles.length > 0 || result.deadLetters > 0 || Object.values(result.exitCodes).some((code) => code !== 0);
  } finally {
    const admin = pipeline.kafka.admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(config.SKRYA_TOPIC_PREFIX));
    await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
    fs.rmSync(dataRoot, { recursive: true, force: true });
    if (failed) process.stderr.write(`[soak] service logs kept in ${logDir}\n`);
    else fs.rmSync(logDir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
