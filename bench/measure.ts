/** Timing and statistics helpers shared by every benchmark. */
import os from 'node:os';

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100); NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface RateSample {
  /** Operations per second of each repetition. */
  repetitions: number[];
  median: number;
}

/**
 * Runs `work` (which performs `operations` operations) `warmups` times untimed, then `repetitions`
 * times timed, and reports operations per second. Each repetition is bounded by its own work.
 */
export function measureRate(work: () => void, options: { operations: number; warmups?: number; repetitions?: number }): RateSample {
  return measureRatesByTurns({ work }, options).work;
}

/**
 * Several works, each performing `operations` operations, timed by turns: all are warmed, then each
 * repetition times every work once, one after another, so each median comes from the same
 * stretches of the machine's time as the others. Timed one after another instead, the parts of a
 * whole could land in different windows of a VM whose speed drifts (session 50's AD1 put
 * screening at 102 µs a result inside a whole of 94).
 */
export function measureRatesByTurns<K extends string>(works: Record<K, () => void>, options: { operations: number; warmups?: number; repetitions?: number }): Record<K, RateSample> {
  const names = Object.keys(works) as K[];
  for (let warm = 0; warm < (options.warmups ?? 1); warm++) for (const name of names) works[name]();
  const rates = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let repetition = 0; repetition < (options.repetitions ?? 5); repetition++) {
    for (const name of names) {
      const started = performance.now();
      works[name]();
      rates[name].push(options.operations / ((performance.now() - started) / 1000));
    }
  }
  return Object.fromEntries(names.map((name) => [name, { repetitions: rates[name], median: median(rates[name]) }])) as Record<K, RateSample>;
}

export async function measureRateAsync(work: () => Promise<void>, options: { operations: number; warmups?: number; repetitions?: number }): Promise<RateSample> {
  for (let warm = 0; warm < (options.warmups ?? 1); warm++) await work();
  const rates: number[] = [];
  for (let repetition = 0; repetition < (options.repetitions ?? 5); repetition++) {
    const started = performance.now();
    await work();
    rates.push(options.operations / ((performance.now() - started) / 1000));
  }
  return { repetitions: rates, median: median(rates) };
}

export interface MemorySample {
  items: number;
  rssMb: number;
  heapUsedMb: number;
  elapsedMs: number;
}

export function memorySample(items: number, elapsedMs: number): MemorySample {
  const usage = process.memoryUsage();
  return { items, rssMb: round(usage.rss / 1048576, 1), heapUsedMb: round(usage.heapUsed / 1048576, 1), elapsedMs: round(elapsedMs, 0) };
}

export function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  totalMemoryMb: number;
  node: string;
  platform: string;
  /** 1, 5 and 15 minute load averages: other work on the machine skews every figure. */
  loadAverage: number[];
  /**
   * What the first touch of a fresh 4 KB page of memory costs here, in µs: a minor page fault. Well
   * under a microsecond on most Linux machines, ten or more in some sandboxed VMs, where every MB a
   * process first touches costs milliseconds of CPU (read with each process's fault count). Null:
   * the probe was not given fresh 4 KB pages (pageFaultMicros).
   */
  pageFaultUs: number | null;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    totalMemoryMb: Math.round(os.totalmem() / 1048576),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((load) => round(load, 2)),
    pageFaultUs: pageFaultMicros(),
  };
}

const PROBE_BYTES = 64 * 1048576;
const PAGE_BYTES = 4096;
const WASM_PAGE_BYTES = 65536;
/** A probe whose pages did not fault at least this often was not given fresh 4 KB pages, and measured nothing. */
const FRESH_PAGES_SHARE = 0.9;
/** WebAssembly.Memory: the project's type libraries (ES2024 and node's) declare no WebAssembly value. */
const WasmMemory = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly.Memory;

/**
 * Touches one byte a page of 64 MB fresh from the kernel (each a minor fault) and divides the time
 * by the faults counted; null when fewer than FRESH_PAGES_SHARE of the pages faulted (huge pages,
 * say), where a quotient would price a fault at the cost of many pages. The memory is a WebAssembly
 * memory, which V8 maps anew each time: a typed array's comes from malloc, which can hand back
 * memory the process touched before, so that few of its pages fault and each is priced at the cost
 * of many. A VM's cost of a fault can move fivefold within minutes, so the stage benches probe it
 * again beside their windows.
 */
export function pageFaultMicros(): number | null {
  const faultsBefore = process.resourceUsage().minorPageFault;
  const started = performance.now();
  const bytes = new Uint8Array(new WasmMemory({ initial: PROBE_BYTES / WASM_PAGE_BYTES }).buffer);
  for (let index = 0; index < bytes.length; index += PAGE_BYTES) bytes[index] = 1;
  const elapsedMs = performance.now() - started;
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  return faults < FRESH_PAGES_SHARE * (PROBE_BYTES / PAGE_BYTES) ? null : round((elapsedMs * 1000) / faults, 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Every core's time so far, busy and in all (os.cpus(), in ms): two readings give the machine's busy share between them. */
export function machineCpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/** Share of all cores' time that was busy since `since` (every process: the broker's too). */
export function machineBusySince(since: { busy: number; total: number }): number {
  const now = machineCpuTimes();
  return now.total > since.total ? (now.busy - since.busy) / (now.total - since.total) : Number.NaN;
}

/** What this process and the machine did over a window: its event loop's busy share, its CPU s/s, and the share of all cores busy. */
export interface ProcessWindow {
  busy: number;
  cpuShare: number;
  machineBusy: number;
}

/** Starts a window now; `end()` reads what this process and the machine did since. */
export function startProcessWindow(): { end(): ProcessWindow } {
  const startedAt = performance.now();
  const loopAtStart = performance.eventLoopUtilization();
  const cpuAtStart = process.cpuUsage();
  const machineAtStart = machineCpuTimes();
  return {
    end: () => ({ busy: performance.eventLoopUtilization(loopAtStart).utilization, cpuShare: cpuShareSince(cpuAtStart, performance.now() - startedAt), machineBusy: machineBusySince(machineAtStart) }),
  };
}

/** CPU seconds (user + system, all threads) since `since`, per wall second of `wallMs`. */
export function cpuShareSince(since: NodeJS.CpuUsage, wallMs: number): number {
  const used = process.cpuUsage(since);
  return wallMs > 0 ? (used.user + used.system) / 1000 / wallMs : Number.NaN;
}
