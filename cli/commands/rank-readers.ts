import { availableParallelism } from 'node:os';
import { startWorker } from '../../runtime/worker-threads.ts';
import type { LineBatch } from '../json-lines.ts';
import { createBatchReader, type ReadBatch, type ReadingSetup } from './rank-reading.ts';

/**
 * Who reads `skrya rank`'s batches: this thread, or reading threads that take the batches in turn
 * while this thread ranks what they send back, in file order. A reader's batches come back in the
 * order it was sent them, each with the words its token table added since its previous one.
 */
export interface BatchReader {
  /** Reads `batch`, its output fields rendered into `space` (handed over with it). */
  read(batch: LineBatch, space: ArrayBuffer): Promise<ReadBatch>;
  close(): Promise<void>;
}

/**
 * How an input is read: by how many reading threads (0: this thread alone), after how many bytes
 * read on this thread, in batches of about how many bytes.
 */
export interface ReadingPlan {
  threads: number;
  /**
   * Bytes read on this thread before the reading threads start (0: they read from the first
   * batch): a stream of unknown length starts them only once it has proved long enough.
   */
  threadsAfterBytes: number;
  batchBytes: number;
}

/**
 * A batch's size: large enough that handing it over costs little, small enough that the threads
 * start at once and finish together, and that what reading one leaves behind (its parsed lines)
 * dies in a reading thread's young generation (4 MB semi-spaces, cli/commands/index.ts) instead of
 * being promoted. At 512 KB it was promoted: each reading thread's heap grew to 41 MB and touched
 * 11-12k fresh pages, against 24 MB and 7-8k at 256 KB. On the bench's 100k file, 10 alternating
 * pairs: 0.943× the CPU, 0.961× the wall, 21 MB less peak memory, the same output (a VM where a
 * page's first touch costs 12 µs; 128 KB was no better).
 */
const BATCH_BYTES = 256 * 1024;
/**
 * Inputs smaller than this are read on this thread alone: a reading thread's start (its modules,
 * about 0.1 s of CPU) costs more than it saves on a few thousand lines.
 */
const THREADED_MIN_BYTES = 8 * 1024 * 1024;
/** Reading threads at most: with the thread that ranks, more than the machine's cores only wait on each other. */
const MAX_READING_THREADS = 2;

/**
 * The plan for an input of `size` bytes (null: not known before it is read, as for stdin): a
 * small file on this thread, a large one on the reading threads from the start, and a stream on
 * this thread until it passes the size a large file has, then on the reading threads.
 */
export function readingPlan(size: number | null, cores = availableParallelism()): ReadingPlan {
  const threads = cores > 1 && (size === null || size >= THREADED_MIN_BYTES) ? Math.min(MAX_READING_THREADS, cores) : 0;
  return { threads, threadsAfterBytes: threads > 0 && size === null ? THREADED_MIN_BYTES : 0, batchBytes: BATCH_BYTES };
}

/** A reader on this thread: each batch is read when it is handed over. */
export function readOnThisThread(setup: ReadingSetup): BatchReader {
  const read = createBatchReader(setup);
  return { read: async (batch, space) => read(batch, space), close: async () => {} };
}

export function startReadingThreads(setup: ReadingSetup, count: number): BatchReader[] {
  return Array.from({ length: count }, () => startReadingThread(setup));
}

const THREAD_ENTRY = new URL('./rank-reading-thread.ts', import.meta.url);

function startReadingThread(setup: ReadingSetup): BatchReader {
  const worker = startWorker(THREAD_ENTRY, { workerData: setup });
  const waiting: { resolve: (batch: ReadBatch) => void; reject: (error: Error) => void }[] = [];
  let failed: Error | null = null;
  let closing = false;
  const fail = (error: Error) => {
    failed ??= error;
    for (const entry of waiting.splice(0)) entry.reject(failed);
  };
  worker.on('message', (batch: ReadBatch) => waiting.shift()?.resolve(batch));
  worker.on('error', (error) => fail(new Error(`a reading thread of skrya rank failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => {
    if (!closing) fail(new Error(`a reading thread of skrya rank exited with code ${code}`));
  });
  return {
    read(batch, space) {
      if (failed !== null) return Promise.reject(failed);
      return new Promise<ReadBatch>((resolve, reject) => {
        waiting.push({ resolve, reject });
        worker.postMessage({ batch, space }, [batch.bytes.buffer, space]);
      });
    },
    async close() {
      closing = true;
      await worker.terminate();
    },
  };
}
