/**
 * Services as real operating-system processes (`node bin/skrya.js run <service>`), so fault tests can
 * kill -9 them, restart them, and stop them gracefully, exactly as a supervisor would. Each process's
 * log (pino JSON on stderr) is kept in a file for the post-mortem and watched for readiness.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const CLI = path.resolve('bin/skrya.js');
/** `skrya run` logs this once every consumer of the process has joined its group. */
const READY_LINE = '"msg":"running; stop with Ctrl-C"';

export interface ServiceProcess {
  readonly service: string;
  readonly pid: number;
  /** Resolves when every consumer of the process has joined its group. */
  readonly ready: Promise<void>;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** True once the process has ended, by itself or killed. */
  hasExited(): boolean;
  /** The process's log so far. */
  log(): string;
  /** kill -9: no shutdown hook runs, nothing is flushed or committed. */
  kill(): Promise<void>;
  /**
   * SIGTERM: `skrya run` finishes in-flight work, commits and exits 0. A process still there after
   * `timeoutMs` is killed and reported as 'hung after SIGTERM'.
   */
  stop(timeoutMs?: number): Promise<number | string>;
}

export interface SpawnOptions {
  env: Record<string, string>;
  logDir: string;
  /** Bound for `ready`; a process that does not join in time fails the wait with its log's tail. */
  readyTimeoutMs?: number;
}

function tail(text: string, lines = 20): string {
  return text.split('\n').slice(-lines).join('\n');
}

export function spawnService(services: string | readonly string[], options: SpawnOptions): ServiceProcess {
  const names = typeof services === 'string' ? [services] : [...services];
  const label = names.join('+');
  fs.mkdirSync(options.logDir, { recursive: true });
  const logPath = path.join(options.logDir, `${label}.log`);
  const child: ChildProcess = spawn(process.execPath, [CLI, 'run', ...names], {
    env: { ...process.env, SKRYA_LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start skrya run ${label}`);
  let output = '';
  const append = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    fs.appendFileSync(logPath, text);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  fs.appendFileSync(logPath, `--- pid ${child.pid} started ${new Date().toISOString()}\n`);

  let ended = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = true;
      fs.appendFileSync(logPath, `--- pid ${child.pid} exited code=${code} signal=${signal}\n`);
      resolve(code ?? signal ?? 'unknown');
    });
  });
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`skrya run ${label} (pid ${child.pid}) did not join its group within ${readyTimeoutMs} ms:\n${tail(output)}`)), readyTimeoutMs);
    const check = () => {
      if (!output.includes(READY_LINE)) return;
      clearTimeout(timer);
      child.stderr!.off('data', check);
      resolve();
    };
    child.stderr!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`skrya run ${label} exited (${code}) before it was ready:\n${tail(output)}`));
    });
  });
  // A kill before readiness is a normal part of a fault test: nobody has to await `ready` then.
  ready.catch(() => {});
  const pid = child.pid;

  return {
    service: label,
    pid,
    ready,
    exited,
    hasExited: () => ended,
    log: () => output,
    async kill() {
      if (!ended) process.kill(pid, 'SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 30_000) {
      if (ended) return exited;
      process.kill(pid, 'SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => {
        timer = setTimeout(() => resolve('hung'), timeoutMs);
      });
      const outcome = await Promise.race([exited, hung]);
      clearTimeout(timer);
      if (outcome !== 'hung') return outcome;
      process.kill(pid, 'SIGKILL');
      await exited;
      return 'hung after SIGTERM';
    },
  };
}

/** Env for `skrya run` against a given broker, registry, prefix and data root, with a short group session. */
export function serviceEnv(settings: { brokers: string; registryUrl: string; prefix: string; dataRoot: string }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SKRYA_KAFKA_BROKERS: settings.brokers,
    SKRYA_REGISTRY_URL: settings.registryUrl,
    SKRYA_TOPIC_PREFIX: settings.prefix,
    SKRYA_DATA_ROOT: settings.dataRoot,
    // A killed member's partitions are handed over after 6 s (the broker's minimum), not 45 s.
    SKRYA_CONSUMER_SESSION_TIMEOUT_MS: '6000',
    // Runs close on their end markers only: a run closed early as incomplete would be a false pass.
    SKRYA_RUN_TIMEOUT_MS: '600000',
    ...extra,
  };
}

/**
 * Polls an async probe until it gives a value; fails with `what` and the last probe error after
 * `timeoutMs`, or at once when `failIf` names a reason (a service that died while we wait).
 */
export async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs: number, options: { intervalMs?: number; failIf?: () => string | null } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    const failure = options.failIf?.();
    if (failure) throw new Error(`gave up waiting for ${what}: ${failure}`);
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last probe error: ${String(lastError)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}

/** A reason when one of the processes has ended (for `failIf`), with the tail of its log. */
export function anyExited(processes: Iterable<ServiceProcess>): string | null {
  for (const process of processes) if (process.hasExited()) return `${process.service} (pid ${process.pid}) exited on its own:\n${tail(process.log())}`;
  return null;
}
