/**
 * What `skrya replay` was asked for, checked before anything is read or written: known tenant and
 * topic, strict ISO 8601 bounds with a time zone, since before until, a valid replay id. The
 * default replay id is made from the range, so replaying the same range twice fills the same folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ingestDir, topicDir } from '../../runtime/data-paths.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { parseReplayId, parseTenantId, parseTopicId, resolveInside, type ReplayId, type TenantId, type TopicId } from '../../runtime/ids.ts';
import { isoDateTime } from '../../schemas/ingest.ts';
import { compactTimestamp } from '../sink/index.ts';

export interface ReplayRequest {
  tenant: TenantId;
  topicId: TopicId;
  /** Normalized to UTC ISO 8601 with milliseconds. */
  since: string;
  until: string;
  replayId: ReplayId;
  promote: boolean;
}

/** As typed on the command line: parsed and checked by buildReplayRequest. */
export interface ReplayRequestInput {
  tenant: string;
  topic: string;
  since: string;
  until: string;
  replayId?: string | undefined;
  promote?: boolean | undefined;
}

/** A date-time with an offset (zod checks the calendar too: no February 30), as UTC ISO 8601. */
export function parseInstant(value: string, flag: string): string {
  if (!isoDateTime.safeParse(value.trim()).success) {
    throw new SkryaError('INVALID_INPUT', `${flag} ${JSON.stringify(value)} is not a date-time: use ISO 8601 with a time zone, e.g. 2026-11-30T08:00:00Z or 2026-11-30T16:00:00+08:00`);
  }
  return new Date(Date.parse(value.trim())).toISOString();
}

/** replay-<since>-<until> in compact UTC: readable, and the same range always gives the same id. */
export function defaultReplayId(since: string, until: string): ReplayId {
  return parseReplayId(`replay-${compactTimestamp(since)}-${compactTimestamp(until)}`.toLowerCase());
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function knownTopics(dataRoot: string, tenant: TenantId): string[] {
  const names = new Set<string>();
  for (const folder of ['topics', 'runs']) {
    try {
      for (const entry of fs.readdirSync(resolveInside(dataRoot, tenant, folder), { withFileTypes: true })) if (entry.isDirectory()) names.add(entry.name);
    } catch {
      // No such folder: nothing known there.
    }
  }
  return [...names].sort();
}

/** The tenant must have a tree, and the topic a sources folder or past runs. */
export function assertKnownTopic(dataRoot: string, tenant: TenantId, topicId: TopicId): void {
  if (!isDirectory(resolveInside(dataRoot, tenant))) {
    throw new SkryaError('INVALID_INPUT', `unknown tenant ${JSON.stringify(tenant)}: no folder ${resolveInside(dataRoot, tenant)} (check --tenant and SKRYA_DATA_ROOT)`);
  }
  const hasRuns = isDirectory(path.dirname(ingestDir(dataRoot, tenant, topicId)));
  if (!hasRuns && !isDirectory(topicDir(dataRoot, tenant, topicId))) {
    const known = knownTopics(dataRoot, tenant);
    throw new SkryaError('INVALID_INPUT', `unknown topic ${JSON.stringify(topicId)} for tenant ${tenant}; known topics: ${known.length > 0 ? known.join(', ') : '(none)'}`);
  }
}

export function buildReplayRequest(input: ReplayRequestInput, dataRoot: string): ReplayRequest {
  const tenant = parseTenantId(input.tenant);
  const topicId = parseTopicId(input.topic);
  const since = parseInstant(input.since, '--since');
  const until = parseInstant(input.until, '--until');
  if (Date.parse(since) >= Date.parse(until)) throw new SkryaError('INVALID_INPUT', `the replay range is empty: --since ${since} is not before --until ${until}`);
  const replayId = input.replayId === undefined ? defaultReplayId(since, until) : parseReplayId(input.replayId);
  assertKnownTopic(dataRoot, tenant, topicId);
  return { tenant, topicId, since, until, replayId, promote: input.promote ?? false };
}
