/**
 * A reading thread of `skrya rank` (rank-readers.ts): reads the batches it is sent, in the order
 * sent, and sends each one back read (rank-reading.ts), its arrays handed over, not copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LineBatch } from '../json-lines.ts';
import { createBatchReader, transferables, type ReadingSetup } from './rank-reading.ts';

const read = createBatchReader(workerData as ReadingSetup);
parentPort!.on('message', ({ batch, space }: { batch: LineBatch; space: ArrayBuffer }) => {
  const done = read(batch, space);
  parentPort!.postMessage(done, transferables(done));
});
