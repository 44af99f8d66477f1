/**
 * Which dead letters an operator means: filters on tenant, stage and reason code, a letter's
 * `<partition>:<offset>` address, and the re-drive plan (what goes back to its source topic, and
 * why the others do not).
 */
import type { StoredDeadLetter } from '../../runtime/dead-letters.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { parseTenantId } from '../../runtime/ids.ts';
import { TOPIC_NAMES, physicalTopic, type TopicName, type TopicNaming } from '../../topics/topics.ts';

export interface LetterFilter {
  tenant?: string | undefined;
  stage?: string | undefined;
  code?: string | undefined;
}

const CODE_PATTERN = /^[A-Z][A-Z0-9_]*$/;
const STAGE_PATTERN = /^[a-z][a-z0-9-]*$/;

/** Checks filter values so a typo is an error, not an empty listing. */
export function parseLetterFilter(input: LetterFilter): LetterFilter {
  if (input.code !== undefined && !CODE_PATTERN.test(input.code)) throw new SkryaError('INVALID_INPUT', `--code ${JSON.stringify(input.code)} is not a reason code: use upper case, e.g. SCHEMA_INVALID or UNDECODABLE`);
  if (input.stage !== undefined && !STAGE_PATTERN.test(input.stage)) throw new SkryaError('INVALID_INPUT', `--stage ${JSON.stringify(input.stage)} is not a stage name: use one such as scorer or collector`);
  return {
    ...(input.tenant !== undefined ? { tenant: parseTenantId(input.tenant) } : {}),
    ...(input.stage !== undefined ? { stage: input.stage } : {}),
    ...(input.code !== undefined ? { code: input.code } : {}),
  };
}

export function matchesFilter(stored: StoredDeadLetter, filter: LetterFilter): boolean {
  const { letter } = stored;
  return (filter.tenant === undefined || letter.tenant === filter.tenant)
    && (filter.stage === undefined || letter.stage === filter.stage)
    && (filter.code === undefined || letter.reason_code === filter.code);
}

/** `3:1207` → partition 3, offset 1207. */
export function parseLetterAddress(text: string): { partition: number; offset: string } {
  const match = /^(\d{1,9}):(\d{1,19})$/.exec(text.trim());
  if (!match) throw new SkryaError('INVALID_INPUT', `${JSON.stringify(text)} is not a letter address: use <partition>:<offset> as \`skrya dlq list\` prints it, e.g. 0:42`);
  return { partition: Number(match[1]), offset: BigInt(match[2]!).toString() };
}

export function letterAddress(stored: { partition: number; offset: string }): string {
  return `${stored.partition}:${stored.offset}`;
}

/** The logical topic a physical name stands for under this prefix; dead-letters itself is never a source. */
export function inputTopicOf(naming: TopicNaming, physical: string): TopicName | null {
  return TOPIC_NAMES.find((name) => name !== 'dead-letters' && physicalTopic(naming, name) === physical) ?? null;
}

export type SkipReason = 'already-redriven' | 'not-an-input-topic' | 'no-original-value';

export interface RedrivePlan {
  redrive: StoredDeadLetter[];
  skipped: Array<{ stored: StoredDeadLetter; reason: SkipReason }>;
}

/** The matching letters in offset order; those already re-driven or with nowhere to go are skipped. */
export function planRedrive(letters: readonly StoredDeadLetter[], options: { filter: LetterFilter; naming: TopicNaming; isRedriven: (stored: StoredDeadLetter) => boolean }): RedrivePlan {
  const plan: RedrivePlan = { redrive: [], skipped: [] };
  for (const stored of letters) {
    if (!matchesFilter(stored, options.filter)) continue;
    if (options.isRedriven(stored)) plan.skipped.push({ stored, reason: 'already-redriven' });
    else if (inputTopicOf(options.naming, stored.letter.source_topic) === null) plan.skipped.push({ stored, reason: 'not-an-input-topic' });
    else if (stored.letter.original_value === null) plan.skipped.push({ stored, reason: 'no-original-value' });
    else plan.redrive.push(stored);
  }
  return plan;
}
