/**
 * The fleet benchmark: sharded monitors (`skrya run monitor` processes reading topic-configs only)
 * over N tenants × M topics with mixed cadences (every_minutes and cron, aligned and spread).
 *  - burst: every topic due at one instant (a minute boundary); due → emitted per topic, the time
 *    until the last request is committed, requests/s; then idle CPU per tick with nothing due, and
 *    the monitors' memory. With `kill`, one of the monitors is SIGKILLed mid-burst and the committed
 *    requests are checked: every topic exactly once.
 *  - steady: due times spread evenly (the cadence mix sets the runs a day); due → emitted of every
 *    topic due in the measured window. The soak variant runs it longer, sampling memory.
 * Emitted = when a read-committed consumer in this process received the request (an upper bound).
 * Downstream stages are not run: the requests topic is what the monitor produces.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createLogger } from '../runtime/logger.ts';
import { createRandom } from '../domain/learned/random.ts';
import { createMonitor } from '../services/monitor/monitor.ts';
import { serviceEnv, spawnService, type ServiceProcess } from '../test/support/fault-processes.ts';
import { dueAfter, exactlyOnce, fleetConfigs, fleetKey, publishFleet, shardMarkers, watchRequests, type Cadence, type ExactlyOnceVerdict, type FleetTopic, type RequestWatch } from '../test/support/fleet.ts';
import { createBenchContext, type BenchContext } from './kafka-bench.ts';
import { percentile, round, sleep } from './measure.ts';

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

export interface FleetSize {
  tenants: number;
  topicsPerTenant: number;
}

export interface ProcessFigures {
  pid: number;
  peakRssMb: number;
  rssMb: number;
  errorLines: number;
  /** The distinct messages of those lines (at most five), to say what they were. */
  errorMessages: string[];
}

export interface BurstFigures {
  scenario: 'burst' | 'burst-kill';
  processes: number;
  topics: number;
  /** How long publishing the configs took, and whether they were all out before the burst instant. */
  publishSeconds: number;
  configsLateSeconds: number;
  /** From the burst instant to the last request committed. */
  allEmittedSeconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU of the monitors with nothing due: in all, and of the busiest process. */
  idle: { seconds: number; cpuShareOfCore: number; busiestProcessShare: number } | null;
  monitors: ProcessFigures[];
  kill: { committedAtKill: number; verdict: ExactlyOnceVerdict } | null;
}

export interface SteadyFigures {
  scenario: 'steady' | 'soak';
  processes: number;
  topics: number;
  configuredRunsPerDay: number;
  /** From publishing the configs until every monitor had read them: the window starts then. */
  loadedSeconds: number;
  windowSeconds: number;
  dueInWindow: number;
  firedInWindow: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  monitors: ProcessFigures[];
  /** Soak: total RSS of the monitors each minute. */
  rssMbByMinute: number[];
}

export interface FleetFigures {
  size: FleetSize;
  tickCosts: TickCosts;
  bursts: BurstFigures[];
  steady: SteadyFigures[];
}

// The heap a topic takes is read between full collections.
v8.setFlagsFromString('--expose-gc');

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (ms) a process has used so far. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
}

function memoryMb(pid: number): { rssMb: number; peakRssMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: round(kb('VmRSS') / 1024, 1), peakRssMb: round(kb('VmHWM') / 1024, 1) };
}

function processFigures(monitor: ServiceProcess): ProcessFigures {
  const lines = monitor.log().split('\n').filter((line) => /"level":(50|60)\b/.test(line));
  const messages = new Set(lines.map((line) => /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 120)));
  return { pid: monitor.pid, ...memoryMb(monitor.pid), errorLines: lines.length, errorMessages: [...messages].slice(0, 5) };
}

interface Session {
  context: BenchContext;
  monitors: ServiceProcess[];
  watch: RequestWatch;
  logDir: string;
  close(): Promise<void>;
}

/**
 * `sessionTimeoutMs`: the monitor group's session. Clean runs use the default 45 s, so a starved
 * monitor is not thrown out of the group mid-burst; the kill run uses 6 s so the takeover is quick.
 */
async function openSession(label: string, processes: number, sessionTimeoutMs: number): Promise<Session> {
  const context = await createBenchContext(label);
  const { config } = context.pipeline;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `skrya-bench-${label}-logs-`));
  const env = serviceEnv({ brokers: config.SKRYA_KAFKA_BROKERS, registryUrl: config.SKRYA_REGISTRY_URL, prefix: config.SKRYA_TOPIC_PREFIX, dataRoot: context.dataRoot }, { SKRYA_MONITOR_WATCH_DATA_ROOT: 'off', SKRYA_CONSUMER_SESSION_TIMEOUT_MS: String(sessionTimeoutMs) });
  const monitors = Array.from({ length: processes }, (_, index) => spawnService('monitor', { env, logDir: path.join(logDir, `monitor-${index}`), readyTimeoutMs: 180_000 }));
  await Promise.all(monitors.map((monitor) => monitor.ready));
  const watch = await watchRequests(context.pipeline);
  return {
    context,
    monitors,
    watch,
    logDir,
    async close() {
      await watch.stop();
      await Promise.all(monitors.map((monitor) => monitor.stop(60_000)));
      await context.close();
      fs.rmSync(logDir, { recursive: true, force: true });
    },
  };
}

/** The burst mix: five cadences, each topic's last run set so that it is due exactly at `at`. */
function burstTopics(size: FleetSize, at: number): FleetTopic[] {
  const when = new Date(at);
  const [minute, hour] = [when.getUTCMinutes(), when.getUTCHours()];
  const mix: Array<{ cadence: Cadence; lastMinutesBefore: number }> = [
    { cadence: { every_minutes: 60 }, lastMinutesBefore: 60 },
    { cadence: { every_minutes: 240 }, lastMinutesBefore: 240 },
    { cadence: { every_minutes: DAY_MINUTES }, lastMinutesBefore: DAY_MINUTES },
    { cadence: `${minute} ${hour} * * *`, lastMinutesBefore: DAY_MINUTES },
    { cadence: `${minute} * * * *`, lastMinutesBefore: 60 },
  ];
  const topics: FleetTopic[] = [];
  for (let tenant = 0; tenant < size.tenants; tenant += 1) {
    for (let topic = 0; topic < size.topicsPerTenant; topic += 1) {
      const { cadence, lastMinutesBefore } = mix[(tenant + topic) % mix.length]!;
      const lastRunUntil = new Date(at - lastMinutesBefore * MINUTE).toISOString();
      topics.push({ ...fleetKey(tenant, topic), cadence, lastRunUntil });
    }
  }
  for (const { cadence, lastMinutesBefore } of mix) {
    if (dueAfter(cadence, new Date(at - lastMinutesBefore * MINUTE).toISOString()) !== at) throw new Error(`burst mix: ${JSON.stringify(cadence)} is not due at ${when.toISOString()}`);
  }
  return topics;
}

/**
 * The steady mix and the runs a day it makes: every_minutes 60 (36 %) and 1440 (14 %), daily crons
 * (30 %) spread over the day's minutes, 6-hourly crons (20 %) over their 360 minute slots. Spread
 * topics have their last run a random part of their cadence ago; crons fire at their minute, so the
 * crons of one minute are small aligned bursts.
 */
function steadyTopics(size: FleetSize, now: number, seed: number): { topics: FleetTopic[]; runsPerDay: number } {
  const random = createRandom(seed);
  const topics: FleetTopic[] = [];
  let runsPerDay = 0;
  const total = size.tenants * size.topicsPerTenant;
  for (let tenant = 0; tenant < size.tenants; tenant += 1) {
    for (let topic = 0; topic < size.topicsPerTenant; topic += 1) {
      const share = ((tenant * size.topicsPerTenant + topic) % 50) / 50;
      const key = fleetKey(tenant, topic);
      if (share < 0.36 || share >= 0.86) {
        const minutes = share < 0.36 ? 60 : DAY_MINUTES;
        topics.push({ ...key, cadence: { every_minutes: minutes }, lastRunUntil: new Date(now - Math.floor(random() * minutes * MINUTE)).toISOString() });
        runsPerDay += DAY_MINUTES / minutes;
      } else if (share < 0.66) {
        const slot = Math.floor(random() * DAY_MINUTES);
        topics.push({ ...key, cadence: `${slot % 60} ${Math.floor(slot / 60)} * * *`, lastRunUntil: new Date(now - MINUTE).toISOString() });
        runsPerDay += 1;
      } else {
        const slot = Math.floor(random() * 360);
        topics.push({ ...key, cadence: `${slot % 60} ${Math.floor(slot / 60)}-23/6 * * *`, lastRunUntil: new Date(now - MINUTE).toISOString() });
        runsPerDay += 4;
      }
    }
  }
  if (topics.length !== total) throw new Error('steady mix: wrong topic count');
  return { topics, runsPerDay: Math.round(runsPerDay) };
}

/** CPU the processes use over `seconds` with nothing due (timers, heartbeats, idle fetches). */
async function measureIdle(monitors: readonly ServiceProcess[], seconds: number): Promise<NonNullable<BurstFigures['idle']>> {
  const alive = monitors.filter((monitor) => !monitor.hasExited());
  const before = alive.map((monitor) => cpuMs(monitor.pid));
  const started = performance.now();
  await sleep(seconds * 1000);
  const wallMs = performance.now() - started;
  const used = alive.map((monitor, index) => cpuMs(monitor.pid) - before[index]!);
  return { seconds, cpuShareOfCore: round(used.reduce((sum, ms) => sum + ms, 0) / wallMs, 4), busiestProcessShare: round(Math.max(...used) / wallMs, 4) };
}

export interface TickCosts {
  topics: number;
  /** A tick with nothing due, the topics loaded (median of many). */
  idleTickMicros: number;
  /** A tick with every topic due, per topic: building the request and the state (publishing left out). */
  dueMicrosPerTopic: number;
  /** JavaScript heap a loaded topic takes (config, schedule entry, state). */
  heapBytesPerTopic: number;
}

/** The monitor's own work in this process, without Kafka: what a tick costs with nothing and with everything due. */
export async function measureTickCosts(size: FleetSize): Promise<TickCosts> {
  const at = Math.ceil((Date.now() + 2 * 60 * MINUTE) / MINUTE) * MINUTE;
  const configs = fleetConfigs(burstTopics(size, at), new Date());
  const collect = runInNewContext('gc') as () => void;
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  let fired = 0;
  const monitor = createMonitor({ logger: createLogger({ level: 'silent' }), publish: async (_shard, batch) => void (fired += batch.length) });
  monitor.assign([0]);
  for (const { key, value } of configs) monitor.applyConfig(0, key, value);
  monitor.shardLoaded(0, new Map());
  collect();
  const heapBytesPerTopic = Math.round((process.memoryUsage().heapUsed - heapBefore) / configs.length);
  const idle: number[] = [];
  for (let repetition = 0; repetition < 200; repetition += 1) {
    const started = performance.now();
    await monitor.tick(new Date(at - MINUTE));
    idle.push((performance.now() - started) * 1000);
  }
  const started = performance.now();
  await monitor.tick(new Date(at));
  const dueMicrosPerTopic = ((performance.now() - started) * 1000) / Math.max(1, fired);
  if (fired !== configs.length) throw new Error(`tick costs: ${fired} of ${configs.length} topics fired`);
  return { topics: configs.length, idleTickMicros: round(percentile(idle, 50), 1), dueMicrosPerTopic: round(dueMicrosPerTopic, 1), heapBytesPerTopic };
}

export async function benchFleetBurst(size: FleetSize, options: { processes: number; kill: boolean; idleSeconds: number; seed: number }): Promise<BurstFigures> {
  const count = size.tenants * size.topicsPerTenant;
  const session = await openSession(`fleet-${options.kill ? 'kill' : 'burst'}-${options.processes}`, options.processes, options.kill ? 6_000 : 45_000);
  try {
    // The burst instant leaves room to publish the configs (1,000-2,000 a second on this loaded machine).
    const at = Math.ceil((Date.now() + 30_000 + count * 1.2) / MINUTE) * MINUTE;
    const topics = burstTopics(size, at);
    const publishStarted = Date.now();
    await publishFleet(session.context.pipeline, fleetConfigs(topics, new Date(publishStarted)));
    const published = Date.now();
    process.stderr.write(` [${count} configs in ${round((published - publishStarted) / 1000, 1)} s; burst at ${new Date(at).toISOString()}]`);

    let kill: BurstFigures['kill'] = null;
    if (options.kill) {
      // Mid-burst: once about a third is committed.
      await session.watch.waitFor(Math.ceil(count / 3), at - Date.now() + 600_000);
      const victim = session.monitors[Math.floor(createRandom(options.seed)() * session.monitors.length)]!;
      await victim.kill();
      kill = { committedAtKill: session.watch.seen.length, verdict: exactlyOnce([], []) };
    }
    const complete = await session.watch.waitFor(count, at - Date.now() + 900_000);
    // Anything fired twice would arrive right behind the rest.
    await sleep(3_000);
    const seen = session.watch.seen;
    if (kill) kill.verdict = exactlyOnce(topics.map((topic) => topic.key), seen);
    const latencies = seen.map((request) => request.seenAt - at);
    const first = Math.min(...seen.map((request) => request.seenAt));
    const last = Math.max(...seen.map((request) => request.seenAt));
    const survivors = session.monitors.filter((monitor) => !monitor.hasExited());
    const idle = complete ? await measureIdle(survivors, options.idleSeconds) : null;
    return {
      scenario: options.kill ? 'burst-kill' : 'burst',
      processes: options.processes,
      topics: count,
      publishSeconds: round((published - publishStarted) / 1000, 1),
      configsLateSeconds: round(Math.max(0, published - at) / 1000, 1),
      allEmittedSeconds: complete ? round((last - at) / 1000, 1) : Number.POSITIVE_INFINITY,
      requestsPerSecond: round(seen.length / Math.max(0.001, (last - first) / 1000)),
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(Math.max(...latencies)),
      idle,
      monitors: survivors.map(processFigures),
      kill,
    };
  } finally {
    await session.close();
  }
}

export async function benchFleetSteady(size: FleetSize, options: { processes: number; windowSeconds: number; seed: number; soak: boolean }): Promise<SteadyFigures> {
  const count = size.tenants * size.topicsPerTenant;
  const session = await openSession(`fleet-${options.soak ? 'soak' : 'steady'}-${options.processes}`, options.processes, 45_000);
  try {
    const publishStarted = Date.now();
    const { topics, runsPerDay } = steadyTopics(size, publishStarted, options.seed);
    const cadences = new Map(topics.map((topic) => [topic.key, topic.cadence]));
    await publishFleet(session.context.pipeline, fleetConfigs(topics, new Date()));
    // Measured from when every monitor has read the configs (a marker published after them on every
    // shard has fired): a topic due while its config was still unread is a load-time figure, not a steady one.
    const markers = shardMarkers('steady');
    await publishFleet(session.context.pipeline, fleetConfigs(markers, new Date()));
    // Other topics fall due meanwhile, so the markers themselves are looked for, not a count.
    const markerKeys = new Set(markers.map((marker) => marker.key));
    for (const deadline = Date.now() + 600_000; session.watch.seen.filter((request) => markerKeys.has(request.key)).length < markerKeys.size; await sleep(250)) {
      if (Date.now() > deadline) throw new Error('steady: the monitors did not read the configs within 600 s');
    }
    const windowStart = Date.now();
    const loadedSeconds = round((windowStart - publishStarted) / 1000, 1);
    const windowEnd = windowStart + options.windowSeconds * 1000;
    const rssMbByMinute: number[] = [];
    while (Date.now() < windowEnd) {
      await sleep(Math.min(MINUTE, windowEnd - Date.now()));
      rssMbByMinute.push(round(session.monitors.reduce((sum, monitor) => sum + memoryMb(monitor.pid).rssMb, 0), 1));
    }
    // Requests due up to the window's end are given time to arrive.
    await sleep(10_000);
    const dueInWindow = topics.reduce((sum, topic) => {
      let due = topic.lastRunUntil === null ? windowStart : dueAfter(topic.cadence, topic.lastRunUntil);
      let fires = 0;
      for (; due <= windowEnd; due = dueAfter(topic.cadence, new Date(due).toISOString())) if (due >= windowStart) fires += 1;
      return sum + fires;
    }, 0);
    const latencies: number[] = [];
    for (const request of session.watch.seen) {
      const cadence = cadences.get(request.key);
      if (cadence === undefined) continue;
      const due = dueAfter(cadence, request.since);
      if (due >= windowStart && due <= windowEnd) latencies.push(request.seenAt - due);
    }
    return {
      scenario: options.soak ? 'soak' : 'steady',
      processes: options.processes,
      topics: count,
      configuredRunsPerDay: runsPerDay,
      loadedSeconds,
      windowSeconds: options.windowSeconds,
      dueInWindow,
      firedInWindow: latencies.length,
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(Math.max(...latencies)),
      monitors: session.monitors.map(processFigures),
      rssMbByMinute,
    };
  } finally {
    await session.close();
  }
}

export async function benchFleet(size: FleetSize, options: { processes: readonly number[]; steadySeconds: number; idleSeconds: number; seed: number }): Promise<FleetFigures> {
  const figures: FleetFigures = { size, tickCosts: await measureTickCosts(size), bursts: [], steady: [] };
  for (const processes of options.processes) {
    figures.bursts.push(await benchFleetBurst(size, { processes, kill: false, idleSeconds: options.idleSeconds, seed: options.seed }));
    figures.steady.push(await benchFleetSteady(size, { processes, windowSeconds: options.steadySeconds, seed: options.seed, soak: false }));
  }
  const most = Math.max(...options.processes);
  if (most > 1) figures.bursts.push(await benchFleetBurst(size, { processes: most, kill: true, idleSeconds: options.idleSeconds, seed: options.seed }));
  return figures;
}
