/**
 * monitor: topic configs → retrieval-requests, for the shards (config partitions) this process
 * owns. Each shard keeps its topics in a schedule ordered by next due time, so a tick costs
 * O(due), not O(topics). Due topics are fired in batches: one batch is one shard's requests with
 * their new monitor-state, published as one transaction by the shard's owner, so a restart, a
 * rebalance or a zombie can neither fire a window twice nor skip one. A topic whose request cannot
 * be built is reported and tried again at its next due time; the others still fire. A deleted
 * topic's monitor-state is deleted too (a tombstone in the shard's next transaction).
 *
 * Memory: a fleet monitor holds every topic of its shards, so a topic costs as little as
 * scheduling needs: a reference to its content (shared by all topics with the same content hash,
 * the sources kept as their JSON text and parsed again when the topic fires), the end of its last
 * window, and its schedule entry.
 */
import fs from 'node:fs';
import { ingestDir, LATEST_FILE } from '../../runtime/data-paths.ts';
import { describeError, isSkryaError } from '../../runtime/errors.ts';
import { parseTopicKey, resolveInside, topicKey, type RunId, type TenantId, type TopicId } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { MonitorState, RetrievalRequest, TopicConfig } from '../../schemas/messages.ts';
import type { TopicSources } from './sources-file.ts';
import { buildRetrievalRequest, expandTopicQueries } from './build-request.ts';
import { nextRunAfter } from './cadence.ts';
import { createDueSchedule, type DueSchedule } from './due-schedule.ts';
import { contentOf, sourcesOf, type TopicContent } from './topic-config.ts';

/** The end of the window of the run in latest-ingest.json: where the next window starts. */
export function lastRunUntil(dataRoot: string, tenant: TenantId, topicId: TopicId): string | null {
  try {
    const latest = JSON.parse(fs.readFileSync(resolveInside(ingestDir(dataRoot, tenant, topicId), LATEST_FILE), 'utf8')) as { time_window?: { until?: unknown } };
    return typeof latest.time_window?.until === 'string' ? latest.time_window.until : null;
  } catch {
    return null;
  }
}

export interface FiredTopic {
  request: RetrievalRequest;
  state: MonitorState;
  /** When the topic was due (ms since the epoch): the bench measures due → emitted from it. */
  dueAt: number;
}

export interface TickReport {
  emitted: Array<{ tenant: TenantId; topicId: TopicId; runId: RunId }>;
  skipped: Array<{ tenant: TenantId; topicId: TopicId; problem: string }>;
}

export interface MonitorOptions {
  logger: Logger;
  /**
   * Publishes one batch of a shard's work in one transaction of the shard's owner: every fired
   * topic's request with its new state, and tombstones for the states of `deletedStates` (deleted
   * topics' keys), which come first. Throws SHARD_FENCED when the shard is no longer ours.
   */
  publish: (shard: number, fired: readonly FiredTopic[], deletedStates: readonly string[]) => Promise<void>;
  /** Topics per transaction: larger batches fire a burst faster, smaller ones commit sooner. */
  batchSize?: number;
}

interface Topic {
  content: TopicContent;
  /** The end of its last run as its config carries it (from latest-ingest.json): used until the shard has a state for it. */
  lastRunUntil: string | null;
}

interface Shard {
  topics: Map<string, Topic>;
  /** Per topic, the end of its last fired window: the part of monitor-state that scheduling needs. */
  lastUntil: Map<string, string>;
  /** Keys whose monitor-state is to be tombstoned: their topic was deleted. */
  staleStates: Set<string>;
  schedule: DueSchedule;
  loaded: boolean;
}

const DEFAULT_BATCH_SIZE = 500;
/** Next-run times computed this many times over are remembered (a burst reschedules many topics from one instant). */
const NEXT_RUN_MEMO_LIMIT = 20_000;
/** Parsed sources kept for this many contents: fleets built from templates parse each once. */
const PARSED_SOURCES_LIMIT = 1_000;

/** Contents shared by the topics that have them, counted so a content no topic uses is dropped. */
function createContentTable() {
  const table = new Map<string, { content: TopicContent; users: number }>();
  const parsed = new Map<string, Omit<TopicSources, 'file'>>();
  return {
    /** The shared content for a config (validated the first time its hash is seen). */
    acquire(config: TopicConfig): TopicContent {
      const entry = table.get(config.content_sha256);
      if (entry) {
        entry.users += 1;
        return entry.content;
      }
      const content = contentOf(config);
      table.set(content.sha256, { content, users: 1 });
      return content;
    },
    release(content: TopicContent): void {
      const entry = table.get(content.sha256);
      if (!entry || (entry.users -= 1) > 0) return;
      table.delete(content.sha256);
      parsed.delete(content.sha256);
    },
    /** The topic's sources, parsed from the content's JSON (remembered for the most recently used contents). */
    sources(content: TopicContent, key: string): TopicSources {
      let sources = parsed.get(content.sha256);
      if (sources) parsed.delete(content.sha256);
      else sources = sourcesOf(content, key);
      parsed.set(content.sha256, sources);
      if (parsed.size > PARSED_SOURCES_LIMIT) parsed.delete(parsed.keys().next().value!);
      return { ...sources, file: `topic-configs:${key}` };
    },
  };
}

export function createMonitor(options: MonitorOptions) {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const shards = new Map<number, Shard>();
  const contents = createContentTable();
  const nextRunMemo = new Map<string, number>();

  /** A topic's next due time, or null when its cadence cannot be read (reported; the topic waits for a new config). */
  function dueAt(key: string, content: TopicContent, last: string | null): number | null {
    if (last === null) return Number.NEGATIVE_INFINITY;
    const memoKey = `${content.sha256}\u0000${last}`;
    const memo = nextRunMemo.get(memoKey);
    if (memo !== undefined) return memo;
    try {
      const next = nextRunAfter(content.cadence, new Date(last)).getTime();
      if (nextRunMemo.size >= NEXT_RUN_MEMO_LIMIT) nextRunMemo.clear();
      nextRunMemo.set(memoKey, next);
      return next;
    } catch (error) {
      options.logger.error({ ...parseTopicKey(key), problem: describeError(error) }, 'topic not scheduled');
      return null;
    }
  }

  const lastOf = (shard: Shard, key: string, topic: Topic) => shard.lastUntil.get(key) ?? topic.lastRunUntil;

  function reschedule(shard: Shard, key: string): void {
    const topic = shard.topics.get(key);
    if (!topic) {
      shard.schedule.remove(key);
      return;
    }
    const next = dueAt(key, topic.content, lastOf(shard, key, topic));
    if (next === null) shard.schedule.remove(key);
    else shard.schedule.schedule(key, next);
  }

  function fire(key: string, topic: Topic, last: string | null, now: Date, due: number): FiredTopic {
    const { tenant, topicId } = parseTopicKey(key);
    const sources = contents.sources(topic.content, key);
    const year = now.getUTCFullYear();
    // Shared by every topic with this content: the first to fire in a new year recomputes it for all.
    if (topic.content.expansion.year !== year) topic.content.expansion = { ...expandTopicQueries(sources, now), year };
    const request = buildRetrievalRequest({ tenant, topicId, topic: sources, now, trigger: 'SCHEDULE', lastRunUntil: last, expansion: topic.content.expansion });
    const state: MonitorState = {
      tenant,
      topic_id: topicId,
      last_run_id: request.run_id,
      last_window_since: request.time_window.since,
      last_window_until: request.time_window.until,
      fired_at: now.toISOString(),
    };
    return { request, state, dueAt: Number.isFinite(due) ? due : now.getTime() };
  }

  /** Builds the due topics' requests; a topic whose request cannot be built is reported and rescheduled. */
  function fireDue(shard: Shard, due: ReadonlyArray<{ key: string; dueAt: number }>, now: Date, report: TickReport): FiredTopic[] {
    const fired: FiredTopic[] = [];
    for (const { key, dueAt: dueTime } of due) {
      const topic = shard.topics.get(key);
      if (!topic) continue;
      try {
        fired.push(fire(key, topic, lastOf(shard, key, topic), now, dueTime));
      } catch (error) {
        const problem = describeError(error);
        options.logger.error({ ...parseTopicKey(key), problem }, 'topic skipped');
        report.skipped.push({ ...parseTopicKey(key), problem });
        // Tried again at its next due time after now (a new config reschedules it at once).
        const retryAt = dueAt(key, topic.content, now.toISOString());
        if (retryAt !== null) shard.schedule.schedule(key, retryAt);
      }
    }
    return fired;
  }

  /** Up to a batch of stale states to tombstone, and those of the fired topics (a re-created topic's old state goes before its new one). */
  function takeStaleStates(shard: Shard, fired: readonly FiredTopic[]): string[] {
    const taken = new Set<string>();
    for (const key of shard.staleStates) {
      if (taken.size >= batchSize) break;
      taken.add(key);
    }
    for (const { request } of fired) {
      const key = `${request.tenant}/${request.topic_id}`;
      if (shard.staleStates.has(key)) taken.add(key);
    }
    for (const key of taken) shard.staleStates.delete(key);
    return [...taken];
  }

  /** Fires up to one batch of a shard's due topics (and tombstones stale states); false when there was nothing to do. */
  async function fireBatch(shardId: number, shard: Shard, now: Date, report: TickReport): Promise<boolean> {
    const due = shard.schedule.takeDue(now.getTime(), batchSize);
    if (due.length === 0 && shard.staleStates.size === 0) return false;
    const fired = fireDue(shard, due, now, report);
    const deletedStates = takeStaleStates(shard, fired);
    if (fired.length === 0 && deletedStates.length === 0) return true;
    try {
      await options.publish(shardId, fired, deletedStates);
    } catch (error) {
      if (shards.get(shardId) !== shard) return false;
      if (isSkryaError(error) && error.code === 'SHARD_FENCED') {
        // Another member owns the shard now; the rebalance that follows hands this process its new shards.
        options.logger.warn({ shard: shardId }, 'shard fenced by a newer owner; it stops firing here');
        shards.delete(shardId);
        return false;
      }
      const problem = describeError(error);
      options.logger.warn({ shard: shardId, topics: fired.length, problem }, 'publishing fired topics failed; they are due again on the next tick');
      for (const key of deletedStates) shard.staleStates.add(key);
      for (const { request } of fired) {
        const key = `${request.tenant}/${request.topic_id}`;
        if (shard.topics.has(key)) shard.schedule.schedule(key, now.getTime());
        report.skipped.push({ tenant: request.tenant, topicId: request.topic_id, problem });
      }
      return false;
    }
    if (shards.get(shardId) !== shard) return false;
    for (const { request, state } of fired) {
      const key = `${request.tenant}/${request.topic_id}`;
      shard.lastUntil.set(key, state.last_window_until);
      reschedule(shard, key);
      report.emitted.push({ tenant: request.tenant, topicId: request.topic_id, runId: request.run_id });
    }
    return true;
  }

  function deleteTopic(shard: Shard, key: string): void {
    const topic = shard.topics.get(key);
    if (topic) contents.release(topic.content);
    shard.topics.delete(key);
    shard.schedule.remove(key);
    if (shard.lastUntil.delete(key)) shard.staleStates.add(key);
  }

  return {
    /** The shards this process owns from now on; each is loading until `shardLoaded`. */
    assign(shardIds: readonly number[]): void {
      for (const shard of shards.values()) for (const topic of shard.topics.values()) contents.release(topic.content);
      shards.clear();
      for (const shardId of shardIds) shards.set(shardId, { topics: new Map(), lastUntil: new Map(), staleStates: new Set(), schedule: createDueSchedule(), loaded: false });
    },

    /** A config record of a shard; null deletes the topic (and, once the shard is loaded, its state). */
    applyConfig(shardId: number, key: string, config: TopicConfig | null): void {
      const shard = shards.get(shardId);
      if (!shard) return;
      if (config === null) {
        deleteTopic(shard, key);
        return;
      }
      // The key names the topic everywhere after this (requests, state, logs): it must be the value's own.
      if (key !== topicKey({ tenant: config.tenant, topicId: config.topic_id })) {
        options.logger.error({ key, tenant: config.tenant, topicId: config.topic_id }, 'config skipped: its key is not the <tenant>/<topic-id> of its value');
        return;
      }
      const previous = shard.topics.get(key);
      if (previous?.content.sha256 === config.content_sha256 && previous.lastRunUntil === config.last_run_until) return;
      let content: TopicContent;
      try {
        content = contents.acquire(config);
      } catch (error) {
        options.logger.error({ key, problem: describeError(error) }, 'config skipped');
        return;
      }
      if (previous) contents.release(previous.content);
      shard.topics.set(key, { content, lastRunUntil: config.last_run_until });
      if (shard.loaded) reschedule(shard, key);
    },

    /** The shard's configs are read and its state restored: schedule every topic; states of topics that are gone are tombstoned. */
    shardLoaded(shardId: number, state: Map<string, MonitorState>): void {
      const shard = shards.get(shardId);
      if (!shard) return;
      for (const [key, { last_window_until: until }] of state) {
        if (shard.topics.has(key)) shard.lastUntil.set(key, until);
        else shard.staleStates.add(key);
      }
      shard.loaded = true;
      for (const key of shard.topics.keys()) reschedule(shard, key);
    },

    /**
     * Fires every topic due at `now`, in batches, the owned shards side by side (each shard's
     * transactions one after another). The time the next topic is due, or null.
     */
    async tick(now: Date): Promise<TickReport> {
      const report: TickReport = { emitted: [], skipped: [] };
      let active = [...shards].filter(([, shard]) => shard.loaded);
      while (active.length > 0) {
        const results = await Promise.all(active.map(async ([shardId, shard]) => [shardId, shard, await fireBatch(shardId, shard, now, report)] as const));
        active = results.filter(([shardId, shard, more]) => more && shards.get(shardId) === shard).map(([shardId, shard]) => [shardId, shard] as [number, Shard]);
      }
      return report;
    },

    /** When the earliest topic of a loaded shard is due (ms since the epoch), or null. */
    nextDueAt(): number | null {
      let earliest: number | null = null;
      for (const shard of shards.values()) {
        if (!shard.loaded) continue;
        const next = shard.schedule.nextDueAt();
        if (next !== null && (earliest === null || next < earliest)) earliest = next;
      }
      return earliest;
    },

    /** How many topics the owned shards hold. */
    topicCount(): number {
      let count = 0;
      for (const shard of shards.values()) count += shard.topics.size;
      return count;
    },
  };
}

export type Monitor = ReturnType<typeof createMonitor>;
