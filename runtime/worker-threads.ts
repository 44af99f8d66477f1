import { Worker, type WorkerOptions } from 'node:worker_threads';

const BOOTSTRAP = new URL('./worker-bootstrap.js', import.meta.url);

/**
 * A worker thread running the module at `entry`, its modules loaded through the on-disk compile
 * cache (worker-bootstrap.js): without it each thread strips and compiles every TypeScript module
 * it imports again, a few hundred milliseconds of CPU a thread start.
 */
export function startWorker(entry: URL, options: Omit<WorkerOptions, 'argv'> = {}): Worker {
  return new Worker(BOOTSTRAP, { ...options, argv: [entry.href] });
}
