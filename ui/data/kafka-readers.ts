/**
 * What the operator's view reads from Kafka and the registry, through runtime/ only: the monitor's
 * schedule state, quota claims, dead letters, a run's dropped items (scored-results keeps them with
 * their reasons), consumer lag and schema versions. Reads that join a throwaway group are cached
 * for a few seconds, so reloading a page does not start a consumer each time.
 */
import type { GroupLag } from '../../runtime/consumer-lag.ts';
import type { StoredDeadLetter, UnreadableDeadLetter } from '../../runtime/dead-letters.ts';
import { type RunId, type TenantId, type TopicId, topicKey } from '../../runtime/ids.ts';
import type { KafkaPort } from '../../runtime/kafka-port.ts';
import { readSubjectVersions, type SubjectVersions } from '../../runtime/registry-subjects.ts';
import type { MonitorState, ScoredItem } from '../../schemas/messages.ts';
import { CONSUMER_SERVICES } from '../../services/service-names.ts';
import { createUsageBook } from '../../services/retriever/index.ts';
import { TOPIC_NAMES, valueSubject } from '../../topics/topics.ts';
import type { FleetReaders } from './fleet.ts';

export interface KafkaReaderDeps {
  port: KafkaPort;
  registryUrl: string;
}

/** How long a run's dropped items may trail its end marker on scored-results. */
const DROPS_AFTER_RUN_MS = 10 * 60_000;
const CACHE_MS = 10_000;
const DROPS_CACHE_RUNS = 200;

function cached<T>(read: () => Promise<T>, ttlMs = CACHE_MS): () => Promise<T> {
  let entry: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (entry === null || Date.now() - entry.at > ttlMs) {
      const value = read();
      entry = { at: Date.now(), value };
      // A failed read is not kept: the next page load tries again.
      value.catch(() => {
        entry = null;
      });
    }
    return entry.value;
  };
}

export interface KafkaReaders extends FleetReaders {
  deadLetters(): Promise<{ letters: StoredDeadLetter[]; unreadable: UnreadableDeadLetter[] }>;
  runDrops(run: { tenant: TenantId; topicId: TopicId; runId: RunId; requestedAt: string; retrievedAt: string }): Promise<ScoredItem[]>;
  consumerLag(): Promise<Array<GroupLag & { service: string }>>;
  subjects(): Promise<SubjectVersions[]>;
}

export function createKafkaReaders(deps: KafkaReaderDeps): KafkaReaders {
  const { port } = deps;
  const dropsCache = new Map<string, Promise<ScoredItem[]>>();
  async function readRunDrops(run: Parameters<KafkaReaders['runDrops']>[0]): Promise<ScoredItem[]> {
    const key = topicKey({ tenant: run.tenant, topicId: run.topicId });
    const sinceMs = Math.min(Date.parse(run.requestedAt), Date.parse(run.retrievedAt)) - 60_000;
    const untilMs = Math.min(Date.now() + 1, Date.parse(run.retrievedAt) + DROPS_AFTER_RUN_MS);
    const drops: ScoredItem[] = [];
    await port.readTimeRange('scored-results', {
      sinceMs,
      untilMs,
      purpose: 'ui-drops',
      keep: (record) => record.key?.toString('utf8') === key && record.value !== null,
      onRecord: async (record) => {
        const value = await port.serde.decode('scored-results', record.value!);
        if (value.kind === 'ITEM' && value.run_id === run.runId && value.item.verdict === 'DROPPED') drops.push(value.item);
      },
    });
    // A redelivered message repeats its place in the run; the collector counts it once, and so does this.
    const unique = [...new Map(drops.map((item) => [`${item.response_sequence}/${item.position}`, item])).values()];
    return unique.sort((a, b) => a.response_sequence - b.response_sequence || a.position - b.position);
  }

  return {
    monitorState: cached((): Promise<Map<string, MonitorState>> => port.readCompacted('monitor-state')),
    runsOnDay: cached(async () => {
      const book = createUsageBook();
      for (const { value } of await port.readToEnd('tenant-usage')) book.record({ tenant: value.tenant, day: value.day, runId: value.run_id });
      return (tenant: TenantId, day: string) => book.counted(tenant, day);
    }),
    deadLetters: cached(() => port.readDeadLetters()),
    runDrops(run) {
      // A written run's drops do not change: each is read from the broker once.
      const cacheKey = `${run.tenant}/${run.topicId}/${run.runId}`;
      const known = dropsCache.get(cacheKey);
      if (known) return known;
      const read = readRunDrops(run);
      dropsCache.set(cacheKey, read);
      read.catch(() => dropsCache.delete(cacheKey));
      if (dropsCache.size > DROPS_CACHE_RUNS) dropsCache.delete(dropsCache.keys().next().value!);
      return read;
    },
    consumerLag: () => port.consumerLag(CONSUMER_SERVICES),
    subjects: () => readSubjectVersions(deps.registryUrl, TOPIC_NAMES.map((topic) => valueSubject(port.naming, topic))),
  };
}
