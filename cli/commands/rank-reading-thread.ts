/**
 * A reading thread of `skrya rank` (rank-readers.ts): reads the batches it is sent, in the order
 * sent, and sends each one back read (rank-reading.ts), its arrays handed over, not copied.
 */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { LineBatch } from '../json-lines.ts';
import type { ReadingSetup } from './rank-reading.ts';

// A thread does not share the CLI's compile cache (bin/skrya.js): without its own, it would compile
// the reader's modules again every run. Enabled before they load.
module.enableCompileCache?.();
const { createBatchReader, transferables } = await import('./rank-reading.ts');

const read = createBatchReader(workerData as ReadingSetup);
parentPort!.on('message', ({ batch, space }: { batch: LineBatch; space: ArrayBuffer }) => {
  const done = read(batch, space);
  parentPort!.postMessage(done, transferables(done));
});
