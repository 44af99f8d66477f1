/**
 * monitor: topic configs → retrieval-requests, for the shards (config partitions) this process
 * owns. Each shard keeps its topics in a schedule ordered by next due time, so a tick costs
 * O(due), not O(topics). Due topics are fired in batches: one batch is one shard's requests with
 * their new monitor-state, published as one transaction by the shard's owner, so a restart, a
 * rebalance or a zombie can neither fire a window twice nor skip one. A topic whose request cannot
 * be built is reported and tried again at its next due time; the others still fire.
 */
import fs from 'node:fs';
import { ingestDir, LATEST_FILE } from '../../runtime/data-paths.ts';
import { describeError, isSkryaError } from '../../runtime/errors.ts';
import { type RunId, type TenantId, type TopicId, resolveInside } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { MonitorState, RetrievalRequest, TopicConfig } from '../../schemas/messages.ts';
import { buildRetrievalRequest, expandTopicQueries } from './build-request.ts';
import { nextRunAfter } from './cadence.ts';
import { createDueSchedule, type DueSchedule } from './due-schedule.ts';
import { fromTopicConfig, type ScheduledTopic } from './topic-config.ts';

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
   * Publishes one batch of a shard's fired topics: every request with its topic's new state, in
   * one transaction of the shard's owner. Throws SHARD_FENCED when the shard is no longer ours.
   */
  publish: (shard: number, fired: readonly FiredTopic[]) => Promise<void>;
  /** Topics per transaction: larger batches fire a burst faster, smaller ones commit sooner. */
  batchSize?: number;
}

interface Shard {
  topics: Map<string, ScheduledTopic>;
  state: Map<string, MonitorState>;
  schedule: DueSchedule;
  loaded: boolean;
}

const DEFAULT_BATCH_SIZE = 500;
/** Next-run times computed this many times over are remembered (a burst reschedules many topics from one instant). */
const NEXT_RUN_MEMO_LIMIT = 20_000;

export function createMonitor(options: MonitorOptions) {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const shards = new Map<number, Shard>();
  const nextRunMemo = new Map<string, number>();

  /** A topic's next due time, or null when its cadence cannot be read (reported; the topic waits for a new config). */
  function dueAt(topic: ScheduledTopic, last: string | null): number | null {
    if (last === null) return Number.NEGATIVE_INFINITY;
    const memoKey = `${JSON.stringify(topic.sources.cadence)}\u0000${last}`;
    const memo = nextRunMemo.get(memoKey);
    if (memo !== undefined) return memo;
    try {
      const next = nextRunAfter(topic.sources.cadence, new Date(last)).getTime();
      if (nextRunMemo.size >= NEXT_RUN_MEMO_LIMIT) nextRunMemo.clear();
      nextRunMemo.set(memoKey, next);
      return next;
    } catch (error) {
      options.logger.error({ tenant: topic.tenant, topicId: topic.topicId, problem: describeError(error) }, 'topic not scheduled');
      return null;
    }
  }

  function reschedule(shard: Shard, key: string): void {
    const topic = shard.topics.get(key);
    if (!topic) {
      shard.schedule.remove(key);
      return;
    }
    const next = dueAt(topic, shard.state.get(key)?.last_window_until ?? topic.lastRunUntil);
    if (next === null) shard.schedule.remove(key);
    else shard.schedule.schedule(key, next);
  }

  function fire(topic: ScheduledTopic, last: string | null, now: Date, due: number): FiredTopic {
    const year = now.getUTCFullYear();
    if (topic.expansion.year !== year) topic.expansion = { ...expandTopicQueries(topic.sources, now), year };
    const request = buildRetrievalRequest({
      tenant: topic.tenant,
      topicId: topic.topicId,
      topic: topic.sources,
      now,
      trigger: 'SCHEDULE',
      lastRunUntil: last,
      expansion: topic.expansion,
    });
    const state: MonitorState = {
      tenant: topic.tenant,
      topic_id: topic.topicId,
      last_run_id: request.run_id,
      last_window_since: request.time_window.since,
      last_window_until: request.time_window.until,
      fired_at: now.toISOString(),
    };
    return { request, state, dueAt: Number.isFinite(due) ? due : now.getTime() };
  }

  /** Fires up to one batch of a shard's due topics; false when none was due. */
  async function fireBatch(shardId: number, shard: Shard, now: Date, report: TickReport): Promise<boolean> {
    const due = shard.schedule.takeDue(now.getTime(), batchSize);
    if (due.length === 0) return false;
    const fired: FiredTopic[] = [];
    for (const { key, dueAt: dueTime } of due) {
      const topic = shard.topics.get(key);
      if (!topic) continue;
      try {
        fired.push(fire(topic, shard.state.get(key)?.last_window_until ?? topic.lastRunUntil, now, dueTime));
      } catch (error) {
        const problem = describeError(error);
        options.logger.error({ tenant: topic.tenant, topicId: topic.topicId, problem }, 'topic skipped');
        report.skipped.push({ tenant: topic.tenant, topicId: topic.topicId, problem });
        // Tried again at its next due time after now (a new config reschedules it at once).
        const retryAt = dueAt(topic, now.toISOString());
        if (retryAt !== null) shard.schedule.schedule(key, retryAt);
      }
    }
    if (fired.length === 0) return true;
    try {
      await options.publish(shardId, fired);
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
      shard.state.set(key, state);
      reschedule(shard, key);
      report.emitted.push({ tenant: request.tenant, topicId: request.topic_id, runId: request.run_id });
    }
    return true;
  }

  return {
    /** The shards this process owns from now on; each is loading until `shardLoaded`. */
    assign(shardIds: readonly number[]): void {
      shards.clear();
      for (const shardId of shardIds) shards.set(shardId, { topics: new Map(), state: new Map(), schedule: createDueSchedule(), loaded: false });
    },

    /** A config record of a shard; null deletes the topic. */
    applyConfig(shardId: number, key: string, config: TopicConfig | null): void {
      const shard = shards.get(shardId);
      if (!shard) return;
      if (config === null) {
        shard.topics.delete(key);
        shard.schedule.remove(key);
        return;
      }
      let topic: ScheduledTopic;
      try {
        topic = fromTopicConfig(config);
      } catch (error) {
        options.logger.error({ key, problem: describeError(error) }, 'config skipped');
        return;
      }
      const previous = shard.topics.get(key);
      if (previous?.contentSha256 === topic.contentSha256 && previous.lastRunUntil === topic.lastRunUntil) return;
      shard.topics.set(key, topic);
      if (shard.loaded) reschedule(shard, key);
    },

    /** The shard's configs are read and its state restored: schedule every topic. */
    shardLoaded(shardId: number, state: Map<string, MonitorState>): void {
      const shard = shards.get(shardId);
      if (!shard) return;
      shard.state = state;
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
