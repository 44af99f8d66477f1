/**
 * Stage throughput against the real broker: the scorer alone and the collector alone (each with
 * its real handler under the shared runner, over pre-produced input), each beside the bare
 * passthrough of the same messages, and the whole scorer → collector → sink pipeline to files.
 */
import type { EventLoopUtilization } from 'node:perf_hooks';
import { createLogger } from '../runtime/logger.ts';
import type { Handler, HandlerContext, IncomingMessage, Outcome } from '../runtime/handler.ts';
import { startService, type RunningService } from '../runtime/runner.ts';
import type { IngestBatch, RawResult, ScoredResult } from '../schemas/messages.ts';
import { createCollector } from '../services/collector/handler.ts';
import { createScorer } from '../services/scorer/handler.ts';
import { createLocalStore } from '../runtime/sink-store.ts';
import { createBatchSink } from '../services/sink/batch-sink.ts';
import type { SkryaConfig } from '../runtime/config.ts';
import { scorerStage, type Stage } from '../services/catalog.ts';
import { consumerGroup, type TopicName } from '../topics/topics.ts';
import { createBenchContext, encodeMessages, flowRate, produceAll, topicCount, watchOutput, type BenchContext, type FlowRate } from './kafka-bench.ts';
import { median, pageFaultMicros, round, sleep, startProcessWindow } from './measure.ts';
import { runPassthrough } from './passthrough.ts';
import { generateRun, type GeneratedRun } from './payloads.ts';
import { parseRunId } from '../runtime/ids.ts';

const STAGE_TIMEOUT_MS = 120_000;

export interface KeyedValue<T> {
  key: string;
  value: T;
}

const noContext: HandlerContext = { heartbeat: async () => {}, signal: new AbortController().signal };

function incoming<T>(topic: TopicName, key: string, value: T): IncomingMessage<T> {
  return { topic, partition: 0, offset: '0', key, value, headers: {}, timestamp: '0' };
}

export function generateRuns(label: string, count: number, responsesPerRun: number, topicCount = 24): GeneratedRun[] {
  return Array.from({ length: count }, (_unused, runIndex) => generateRun({ label, runIndex, topicCount, responsesPerRun }));
}

export function rawMessagesOf(runs: readonly GeneratedRun[]): KeyedValue<RawResult>[] {
  return runs.flatMap((run) => run.messages.map((value) => ({ key: run.key, value })));
}

/**
 * The provider responses whose results the scorer's per-result steps are timed on (the bench's
 * kernels row and bench/steps-ab.ts): twenty generated runs of two responses, JSON and RSS by turns.
 */
export function stepResponses(): Array<Extract<RawResult, { kind: 'RESPONSE' }>> {
  return rawMessagesOf(generateRuns('steps', 20, 2))
    .map(({ value }) => value)
    .filter((value): value is Extract<RawResult, { kind: 'RESPONSE' }> => value.kind === 'RESPONSE');
}

/** The scorer's outputs for these inputs, computed in-process: the expected output count, and the collector's input. */
export function scoreInProcess(raw: readonly KeyedValue<RawResult>[]): { scored: KeyedValue<ScoredResult>[]; items: number; deadLetters: number } {
  const scorer = createScorer();
  const scored: KeyedValue<ScoredResult>[] = [];
  let deadLetters = 0;
  for (const { key, value } of raw) {
    for (const outcome of scorer.handle(incoming('raw-results', key, value), noContext) as Outcome[]) {
      if (outcome.kind === 'emit') scored.push({ key: outcome.key, value: outcome.value as ScoredResult });
      else if (outcome.kind === 'deadLetter') deadLetters += 1;
    }
  }
  return { scored, items: scored.filter((message) => message.value.kind === 'ITEM').length, deadLetters };
}

/** Copies of the runs under new run ids, so the collector has more runs to close than the scorer produced. */
export function relabelRuns(scored: readonly KeyedValue<ScoredResult>[], copies: number): KeyedValue<ScoredResult>[] {
  const result: KeyedValue<ScoredResult>[] = [];
  for (let copy = 0; copy < copies; copy++) for (const { key, value } of scored) result.push({ key, value: { ...value, run_id: parseRunId(`${value.run_id}-c${copy}`) } });
  return result;
}

/** The batch sink, noting when each run's files (latest-ingest.json among them) were written. */
export function timedSink(onWritten: (runId: string, at: number) => void, dataRoot: string): Handler<'ingest-normalized'> {
  const sink = createBatchSink({ store: createLocalStore(dataRoot) });
  return {
    ...sink,
    async handle(message: IncomingMessage<IngestBatch>, context: HandlerContext) {
      const outcomes = await sink.handle(message, context);
      onWritten(message.value.run_id, performance.now());
      return outcomes;
    },
  };
}

/**
 * The scorer as `skrya run scorer` builds it (worker threads per SKRYA_SCORER_WORKERS), warmed on
 * other runs' responses first, so a figure is its steady state rather than JIT start-up (the first
 * thousand items cost about twice as much); inside workers only their own work warms them.
 */
export async function warmScorerStage(config: SkryaConfig): Promise<ReturnType<typeof scorerStage>> {
  const stage = scorerStage(config);
  const warmUp = rawMessagesOf(generateRuns('warm-up', 40, 2));
  await Promise.all(warmUp.map(({ key, value }) => stage.handler.handle(incoming('raw-results', key, value) as IncomingMessage<never>, noContext)));
  return stage;
}

export async function startStage<T extends TopicName>(context: BenchContext, service: string, handler: Handler<T>): Promise<RunningService> {
  const { kafka } = context.pipeline;
  const { serde, naming } = context.pipeline.port;
  return startService({ service, kafka, serde, naming, logger: createLogger({ level: 'warn', name: `bench-${service}` }), handler });
}

/** Rejects when a stage dies, so a crashed stage fails the benchmark instead of timing out. */
function orCrash<R>(work: Promise<R>, services: readonly RunningService[]): Promise<R> {
  return Promise.race([work, ...services.map((service) => service.crashed.then((error) => Promise.reject(new Error(`${service.service} crashed: ${error.message}`))))]);
}

/** One round: the bare passthrough, then the stage, over the same messages, one after the other. */
export interface StageRound {
  passthrough: FlowRate;
  stage: FlowRate & { itemsPerSecond: number };
  /** Stage input messages/s over the passthrough's in this round. */
  ratio: number;
}

export interface StageFigures {
  inputs: number;
  outputs: number;
  items: number;
  rounds: StageRound[];
  passthrough: { medianMessagesPerSecond: number };
  /** The stage's figures from the round whose ratio is the median. */
  stage: StageRound['stage'];
  /** The median of the rounds' ratios. */
  ratio: number;
  deadLetters: number;
  /** The cost of a page fault in µs, probed just before the first round and just after the last: what the windows' faults are priced at. */
  pageFaultUs: { before: number | null; after: number | null };
}

async function measureStage<T extends TopicName>(context: BenchContext, options: { service: string; handler: Handler<T>; outputTopic: string; inputs: number; expectedOutputs: number; items: number; workers?: () => readonly EventLoopUtilization[] }): Promise<StageRound['stage']> {
  const baseline = await topicCount(context.admin, options.outputTopic);
  const service = await startStage(context, options.service, options.handler);
  let stage: FlowRate;
  try {
    stage = await orCrash(watchOutput(context.admin, options.outputTopic, { joined: service.ready, baseline, expected: options.expectedOutputs, timeoutMs: STAGE_TIMEOUT_MS, workers: options.workers }), [service]).then((watch) => flowRate(watch, options.inputs, options.expectedOutputs));
  } finally {
    await service.stop();
  }
  // The next round's stage reads the input from the start again under the same group name.
  await context.admin.deleteGroups([consumerGroup(context.pipeline.port.naming, options.service)]);
  return { ...stage, itemsPerSecond: stage.inputsPerSecond * (options.items / options.inputs) };
}

/**
 * `rounds` rounds of the passthrough and then the stage over the same pre-produced messages; the
 * figure is the median of the rounds' ratios. A window is a few seconds, so whatever else the
 * machine runs moves a single one; a ratio taken from two windows side by side, repeated, is
 * steadier than rates from separate minutes.
 */
async function measureStageAgainstPassthrough<T extends TopicName>(context: BenchContext, options: {
  service: string;
  /** A fresh handler for each round (a stateful stage must not see a run it already closed). */
  handlerFor: () => Handler<T>;
  inputTopic: TopicName;
  outputTopic: TopicName;
  inputs: number;
  expectedOutputs: number;
  items: number;
  rounds: number;
  /** The stage's worker threads (the scorer's pool), whose busy share each window records. */
  workers?: () => readonly EventLoopUtilization[];
}): Promise<StageFigures> {
  const passthroughOut = await context.createExtraTopic('passthrough-out');
  const outputTopic = context.topic(options.outputTopic);
  const rounds: StageRound[] = [];
  const faultCostBefore = pageFaultMicros();
  for (let index = 0; index < options.rounds; index++) {
    const passthrough = await runPassthrough(context, { inputTopic: context.topic(options.inputTopic), outputTopic: passthroughOut, inputs: options.inputs, timeoutMs: STAGE_TIMEOUT_MS });
    const stage = await measureStage(context, { ...options, handler: options.handlerFor(), outputTopic });
    rounds.push({ passthrough, stage, ratio: stage.inputsPerSecond / passthrough.inputsPerSecond });
  }
  const faultCostAfter = pageFaultMicros();
  const ratio = median(rounds.map((entry) => entry.ratio));
  return {
    inputs: options.inputs,
    outputs: options.expectedOutputs,
    items: options.items,
    rounds,
    passthrough: { medianMessagesPerSecond: median(rounds.map((entry) => entry.passthrough.inputsPerSecond)) },
    stage: rounds.find((entry) => entry.ratio === ratio)!.stage,
    ratio,
    deadLetters: await topicCount(context.admin, context.topic('dead-letters')),
    pageFaultUs: { before: faultCostBefore, after: faultCostAfter },
  };
}

export interface StageBenchOptions {
  runs: number;
  responsesPerRun: number;
  /** The collector's runs are runs / collectorCopies scored runs, each relabelled this many times. */
  collectorCopies: number;
  /** Rounds of passthrough and stage windows for the scorer and collector figures. */
  rounds: number;
}

/** Generates `options.runs` runs (named after the context's label) and produces them to raw-results. */
async function produceGeneratedRuns(context: BenchContext, options: StageBenchOptions): Promise<{ runs: number; rawMessages: number; items: number }> {
  const generated = generateRuns(context.label, options.runs, options.responsesPerRun);
  const raw = rawMessagesOf(generated);
  await produceAll(context.pipeline.kafka, context.topic('raw-results'), await encodeMessages(context, 'raw-results', 'retriever', raw));
  return { runs: generated.length, rawMessages: raw.length, items: generated.reduce((sum, run) => sum + run.items, 0) };
}

export async function benchScorerAlone(options: StageBenchOptions): Promise<StageFigures> {
  const context = await createBenchContext('scorer');
  try {
    const { runs, rawMessages, items } = await produceGeneratedRuns(context, options);
    const scorer = await warmScorerStage(context.pipeline.config);
    try {
      // One scored message per result (dropped ones too) and one run-end marker per run.
      // One handler for every round: a new assignment clears its run tallies.
      return await measureStageAgainstPassthrough(context, { service: 'scorer', handlerFor: () => scorer.handler, inputTopic: 'raw-results', outputTopic: 'scored-results', inputs: rawMessages, expectedOutputs: items + runs, items, rounds: options.rounds, workers: scorer.pool && (() => scorer.pool!.utilization()) });
    } finally {
      await scorer.close?.();
    }
  } finally {
    await context.close();
  }
}

export async function benchCollectorAlone(options: StageBenchOptions): Promise<StageFigures> {
  // Scoring in-process is slow (it is the scorer's whole cost): score a share and relabel copies.
  const raw = rawMessagesOf(generateRuns('collector', Math.ceil(options.runs / options.collectorCopies), options.responsesPerRun));
  const scored = relabelRuns(scoreInProcess(raw).scored, options.collectorCopies);
  const runs = scored.filter((message) => message.value.kind === 'RUN_END').length;
  const items = scored.length - runs;
  const context = await createBenchContext('collector');
  try {
    await produceAll(context.pipeline.kafka, context.topic('scored-results'), await encodeMessages(context, 'scored-results', 'scorer', scored));
    // Warm-up, as for the scorer: a throwaway collector closes the same runs once in-process.
    const warmUp = createCollector({ runTimeoutMs: 600_000, logger: createLogger({ level: 'warn', name: 'bench-collector' }) });
    for (const { key, value } of scored) await warmUp.handle(incoming('scored-results', key, value), noContext);
    const handlerFor = () => createCollector({ runTimeoutMs: 600_000, logger: createLogger({ level: 'warn', name: 'bench-collector' }) });
    return await measureStageAgainstPassthrough(context, { service: 'collector', handlerFor, inputTopic: 'scored-results', outputTopic: 'ingest-normalized', inputs: scored.length, expectedOutputs: runs, items, rounds: options.rounds });
  } finally {
    await context.close();
  }
}

export interface PipelineFigures {
  runs: number;
  rawMessages: number;
  items: number;
  /** From the scorer joining its group to the last run's files written. */
  seconds: number;
  itemsPerSecond: number;
  rawMessagesPerSecond: number;
  firstFileAfterMs: number;
  /** Share of the time this process's event loop was busy (all three stages share it). */
  busy: number;
  cpuShare: number;
}

/** scorer + collector + sink over pre-produced raw results, until every run's files are written. */
export async function benchWholePipeline(options: StageBenchOptions): Promise<PipelineFigures> {
  const context = await createBenchContext('pipeline');
  const written: number[] = [];
  const services: RunningService[] = [];
  let scoring: Stage<Outcome> | undefined;
  try {
    const { runs, rawMessages, items } = await produceGeneratedRuns(context, options);
    services.push(await startStage(context, 'collector', createCollector({ runTimeoutMs: 600_000, logger: createLogger({ level: 'warn', name: 'bench-collector' }) })));
    services.push(await startStage(context, 'sink', timedSink((_runId, at) => written.push(at), context.dataRoot)));
    await Promise.all(services.map((service) => service.ready));
    scoring = await warmScorerStage(context.pipeline.config);
    const scorer = await startStage(context, 'scorer', scoring.handler);
    services.push(scorer);
    await scorer.ready;
    const started = performance.now();
    const window = startProcessWindow();
    const deadline = started + STAGE_TIMEOUT_MS;
    await orCrash((async () => {
      while (written.length < runs && performance.now() < deadline) await sleep(20);
    })(), services);
    if (written.length < runs) throw new Error(`pipeline wrote ${written.length} of ${runs} runs within ${STAGE_TIMEOUT_MS} ms`);
    const { busy, cpuShare } = window.end();
    const seconds = (Math.max(...written) - started) / 1000;
    return {
      runs,
      rawMessages,
      items,
      seconds: round(seconds, 3),
      itemsPerSecond: items / seconds,
      rawMessagesPerSecond: rawMessages / seconds,
      firstFileAfterMs: round(Math.min(...written) - started, 1),
      busy: round(busy, 3),
      cpuShare: round(cpuShare, 3),
    };
  } finally {
    for (const service of services) await service.stop();
    await scoring?.close?.();
    await context.close();
  }
}
