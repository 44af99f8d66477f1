/**
 * The fault tests' workload and its verdict. A workload is a set of runs per topic, each made of
 * provider responses (RSS feeds whose every item has its own URL) and a run-end marker, published
 * to raw-results. The verdict reads the sink's normalized/<timestamp>.json files back and says,
 * run by run, which expected items are missing, which appear more than once, and which runs or
 * files should not exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Admin } from 'kafkajs';
import { ingestDir } from '../../runtime/data-paths.ts';
import { parseRunId, parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import type { Publisher } from '../../runtime/publishers.ts';
import type { RawResult, RequestContext } from '../../schemas/messages.ts';
import { compactTimestamp } from '../../services/sink/file-names.ts';
import { consumerGroup, physicalTopic, type TopicName, type TopicNaming } from '../../topics/topics.ts';
import { createRandom } from '../../domain/learned/random.ts';
import { requestContextFixture } from '../fixtures/messages.ts';

export interface PlannedRun {
  tenant: string;
  topicId: string;
  runId: string;
  requestedAt: string;
  /** Every item URL the run's file must hold exactly once (tie-heavy: every URL the run finds; max_items of them are kept). */
  urls: string[];
  /** The run's raw-results messages in order: its responses, then its end marker. */
  messages: RawResult[];
}

export interface WorkloadShape {
  tenant: string;
  topics: number;
  runsPerTopic: number;
  /**
   * Responses per run for even-numbered topics; odd ones get one more. Topics sharing a partition then
   * close their runs out of step, so a closed run usually straddles another topic's open one.
   */
  responsesPerRun: number;
  itemsPerResponse: number;
  /** Makes URLs and run ids unique to one test run. */
  label: string;
  /**
   * Tie-heavy: every run of a topic carries the same evidence (the same URLs and texts, fetched once)
   * in a different order, and every item scores the same, so only the tie-break decides which
   * `maxItems` are kept. Without it, each run has its own items and keeps them all.
   */
  tieHeavy?: { maxItems: number };
}

const WORDS = ['kafka', 'broker', 'raft', 'partition', 'replica', 'offset', 'consumer', 'producer', 'schema', 'registry', 'avro', 'stream', 'segment', 'index', 'compaction', 'retention', 'quota', 'throttle', 'leader', 'fetch'];
const FEED_PRODUCER = { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } as const;

function feedItem(url: string, serial: number): string {
  // Titles and texts differ enough that near-duplicate merging never joins two planned items.
  const [a, b, c] = [WORDS[serial % 20], WORDS[(serial * 7 + 3) % 20], WORDS[(serial * 13 + 11) % 20]];
  const minute = String(serial % 60).padStart(2, '0');
  return `<item><title>Story ${serial}: ${a} ${b} ${c} report ${serial * 37 % 1009}</title><link>${url}</link>`
    + `<pubDate>Tue, 24 Nov 2026 10:${minute}:00 GMT</pubDate>`
    + `<description>Report ${serial} covers ${a} and ${b} in depth, with notes on ${c}; marker ${serial}-${serial * 31 % 997}.</description></item>`;
}

/**
 * An item that scores exactly like every other of its kind: no query word, one publication time, one
 * authority tier, and too few words for near-duplicate matching (so no two of them merge). Titled
 * "Entry", not "Note": the learned screening model reads a bare "Note …" title as a note to AI models
 * (README, Quality: what it still misses), which would downweight some and break the tie.
 */
function tiedFeedItem(url: string, serial: number): string {
  return `<item><title>Entry ${serial} ${WORDS[serial % 20]}</title><link>${url}</link>`
    + '<pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate>'
    + `<description>${WORDS[(serial * 7 + 3) % 20]} ${serial}.</description></item>`;
}

/** The same items in a seeded order of their own for every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = createRandom(seed);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

export function planWorkload(shape: WorkloadShape): PlannedRun[] {
  if (shape.tieHeavy) return planTieHeavyWorkload(shape, shape.tieHeavy.maxItems);
  const runs: PlannedRun[] = [];
  let serial = 0;
  for (let topic = 0; topic < shape.topics; topic += 1) {
    const topicId = `fault-${topic}`;
    for (let run = 0; run < shape.runsPerTopic; run += 1) {
      // One minute apart: every run has its own normalized/<timestamp>.json.
      const requestedAt = new Date(Date.UTC(2026, 10, 24, 12, run, topic)).toISOString();
      const runId = `run-${shape.label}-${topic}-${run}`;
      const request: RequestContext = { ...requestContextFixture, requested_at: requestedAt, max_items: 200 };
      const scope = { tenant: parseTenantId(shape.tenant), topic_id: parseTopicId(topicId), run_id: parseRunId(runId), request };
      const urls: string[] = [];
      const messages: RawResult[] = [];
      const responses = shape.responsesPerRun + (topic % 2);
      for (let sequence = 0; sequence < responses; sequence += 1) {
        const items: string[] = [];
        for (let index = 0; index < shape.itemsPerResponse; index += 1) {
          serial += 1;
          const url = `https://news${index}.example.org/${shape.label}/${topicId}/r${run}/s${sequence}/story-${index}`;
          urls.push(url);
          items.push(feedItem(url, serial));
        }
        messages.push(feedResponse(scope, sequence, items, requestedAt));
      }
      messages.push(feedRunEnd(scope, responses, urls.length));
      runs.push({ tenant: shape.tenant, topicId, runId, requestedAt, urls, messages });
    }
  }
  return runs;
}


type RunScope = Pick<RawResult, 'tenant' | 'topic_id' | 'run_id' | 'request'>;

/** One feed_reader response of a run: an RSS document holding `items`. */
function feedResponse(scope: RunScope, sequence: number, items: readonly string[], fetchedAt: string): RawResult {
  return {
    ...scope,
    kind: 'RESPONSE',
    producer: { ...FEED_PRODUCER, capabilities: [...FEED_PRODUCER.capabilities] },
    response: {
      sequence,
      capability: 'rss_feed',
      sub_query: null,
      counter_evidence: false,
      fetched_at: fetchedAt,
      http_status: 200,
      content_type: 'application/rss+xml',
      url: `https://feeds.example.org/${scope.topic_id}/${sequence}.xml`,
      payload: `<?xml version="1.0"?><rss version="2.0"><channel><title>${scope.topic_id}</title>${items.join('')}</channel></rss>`,
    },
    run_end: null,
  };
}

/** A run's end marker: every feed call answered. */
function feedRunEnd(scope: RunScope, responses: number, results: number): RawResult {
  const at = scope.request.requested_at;
  return {
    ...scope,
    kind: 'RUN_END',
    producer: { kind: 'provider', name: 'retriever', persistent: true, capabilities: ['rss_feed'] },
    response: null,
    run_end: {
      response_count: responses,
      started_at: at,
      finished_at: at,
      provider_status: [{ provider: 'feed_reader', capability: 'rss_feed', status: 'ok', code: null, message: null, calls: responses, results }],
      degradation_log_json: '[]',
      plan_json: null,
    },
  };
}

function planTieHeavyWorkload(shape: WorkloadShape, maxItems: number): PlannedRun[] {
  const runs: PlannedRun[] = [];
  for (let topic = 0; topic < shape.topics; topic += 1) {
    const topicId = `fault-${topic}`;
    const responses = shape.responsesPerRun + (topic % 2);
    const evidence = Array.from({ length: responses * shape.itemsPerResponse }, (_unused, serial) => {
      const url = `https://news${serial % 3}.example.org/${shape.label}/${topicId}/story-${serial}`;
      return { url, xml: tiedFeedItem(url, serial) };
    });
    // Fetched once: the same bytes in every run.
    const fetchedAt = new Date(Date.UTC(2026, 10, 24, 12, 0, topic)).toISOString();
    for (let run = 0; run < shape.runsPerTopic; run += 1) {
      const requestedAt = new Date(Date.UTC(2026, 10, 24, 12, run, topic)).toISOString();
      const runId = `run-${shape.label}-${topic}-${run}`;
      const request: RequestContext = { ...requestContextFixture, requested_at: requestedAt, max_items: maxItems };
      const scope = { tenant: parseTenantId(shape.tenant), topic_id: parseTopicId(topicId), run_id: parseRunId(runId), request };
      const order = shuffled(evidence, topic * 1000 + run + 1);
      const messages: RawResult[] = [];
      for (let sequence = 0; sequence < responses; sequence += 1) {
        const items = order.slice(sequence * shape.itemsPerResponse, (sequence + 1) * shape.itemsPerResponse).map((item) => item.xml);
        messages.push(feedResponse(scope, sequence, items, fetchedAt));
      }
      messages.push(feedRunEnd(scope, responses, evidence.length));
      runs.push({ tenant: shape.tenant, topicId, runId, requestedAt, urls: evidence.map((item) => item.url), messages });
    }
  }
  return runs;
}

/**
 * The workload as publishing steps: step k holds the k-th message of every topic's stream, so each
 * topic always has a run in flight (its items published, its end marker still to come). A crash
 * then always finds held runs in the collector and half-scored runs upstream.
 */
export function publishingSteps(runs: readonly PlannedRun[]): Array<Array<{ key: string; message: RawResult }>> {
  const streams = new Map<string, RawResult[]>();
  for (const run of runs) {
    const key = topicKey({ tenant: parseTenantId(run.tenant), topicId: parseTopicId(run.topicId) });
    streams.set(key, [...(streams.get(key) ?? []), ...run.messages]);
  }
  const longest = Math.max(0, ...[...streams.values()].map((stream) => stream.length));
  const steps: Array<Array<{ key: string; message: RawResult }>> = [];
  for (let index = 0; index < longest; index += 1) {
    steps.push([...streams].flatMap(([key, stream]) => {
      const message = stream[index];
      return message ? [{ key, message }] : [];
    }));
  }
  return steps;
}

export async function publishStep(publisher: Publisher, step: ReadonlyArray<{ key: string; message: RawResult }>): Promise<void> {
  for (const { key, message } of step) await publisher.publish('raw-results', key, message);
}

export interface RunFileVerdict {
  runId: string;
  file: string;
  exists: boolean;
  complete: boolean;
  missing: string[];
  duplicated: string[];
  unexpected: string[];
}

export function runFile(dataRoot: string, run: Pick<PlannedRun, 'tenant' | 'topicId' | 'requestedAt'>): string {
  return path.join(ingestDir(dataRoot, parseTenantId(run.tenant), parseTopicId(run.topicId)), 'normalized', `${compactTimestamp(run.requestedAt)}.json`);
}

interface NormalizedDocument {
  run_id: string;
  items: Array<{ url: string }>;
  stats?: { complete?: boolean };
}

function readDocument(file: string): NormalizedDocument | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as NormalizedDocument;
  } catch {
    return null;
  }
}

export function judgeRun(dataRoot: string, run: PlannedRun): RunFileVerdict {
  const file = runFile(dataRoot, run);
  const document = readDocument(file);
  if (!document) return { runId: run.runId, file, exists: false, complete: false, missing: [...run.urls], duplicated: [], unexpected: [] };
  const seen = new Map<string, number>();
  for (const item of document.items) seen.set(item.url, (seen.get(item.url) ?? 0) + 1);
  const expected = new Set(run.urls);
  return {
    runId: run.runId,
    file,
    exists: true,
    complete: document.run_id === run.runId && document.stats?.complete === true,
    missing: run.urls.filter((url) => !seen.has(url)),
    duplicated: [...seen].filter(([, count]) => count > 1).map(([url]) => url),
    unexpected: [...seen.keys()].filter((url) => !expected.has(url)),
  };
}

export function isExact(verdict: RunFileVerdict): boolean {
  return verdict.exists && verdict.complete && verdict.missing.length === 0 && verdict.duplicated.length === 0 && verdict.unexpected.length === 0;
}

export interface WorkloadVerdict {
  runs: number;
  exact: number;
  missingRuns: string[];
  /** Runs whose file exists but is not exactly the planned items, with what is wrong. */
  wrongRuns: RunFileVerdict[];
  /** normalized/*.json files no planned run accounts for. */
  strayFiles: string[];
  lostItems: number;
  duplicatedItems: number;
}

export function judgeWorkload(dataRoot: string, runs: readonly PlannedRun[]): WorkloadVerdict {
  const verdicts = runs.map((run) => judgeRun(dataRoot, run));
  const planned = new Set(verdicts.map((verdict) => verdict.file));
  const folders = new Set(verdicts.map((verdict) => path.dirname(verdict.file)));
  const strayFiles = [...folders].flatMap((folder) => (fs.existsSync(folder) ? fs.readdirSync(folder) : [])
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(folder, name))
    .filter((file) => !planned.has(file)));
  return {
    runs: runs.length,
    exact: verdicts.filter(isExact).length,
    missingRuns: verdicts.filter((verdict) => !verdict.exists).map((verdict) => verdict.runId),
    wrongRuns: verdicts.filter((verdict) => verdict.exists && !isExact(verdict)),
    strayFiles,
    lostItems: verdicts.reduce((sum, verdict) => sum + verdict.missing.length, 0),
    duplicatedItems: verdicts.reduce((sum, verdict) => sum + verdict.duplicated.length, 0),
  };
}

/** Messages a group has not committed yet on a topic (every partition): 0 means the stage is done. */
export async function groupLag(admin: Admin, naming: TopicNaming, service: string, topic: TopicName): Promise<number> {
  const physical = physicalTopic(naming, topic);
  // Committed offsets first: read the other way round, a commit made in between could pass a stale end.
  const [committed] = await admin.fetchOffsets({ groupId: consumerGroup(naming, service), topics: [physical] });
  const ends = await admin.fetchTopicOffsets(physical);
  const committedByPartition = new Map((committed?.partitions ?? []).map((partition) => [partition.partition, BigInt(partition.offset)]));
  return ends.reduce((sum, end) => {
    const done = committedByPartition.get(end.partition) ?? -1n;
    const high = BigInt(end.high);
    return sum + Number(high - (done < 0n ? BigInt(end.low) : done));
  }, 0);
}

/** How many messages a topic holds (every partition, high watermarks). */
export async function topicSize(admin: Admin, naming: TopicNaming, topic: TopicName): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(physicalTopic(naming, topic));
  return offsets.reduce((sum, partition) => sum + Number(BigInt(partition.high) - BigInt(partition.low)), 0);
}
