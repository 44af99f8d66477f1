/**
 * kafkajs's read_committed filtering, corrected before kafkajs loads (kafkajs-replacements.ts).
 *
 * A fetch response lists the aborted transactions its records overlap (producer and first
 * offset), in the order they were aborted. kafkajs 2.2.4 (`src/consumer/filterAbortedMessages.js`)
 * walks the records and starts ignoring a producer's transactional records only when a record
 * reaches the *next* listed transaction's first offset, one listed transaction per record. When
 * two transactions on a partition end in another order than they began (two monitor shards of a
 * killed process fenced one after the other, each aborting its open transaction), the one that
 * began first is entered late or never, and its records reach a read_committed consumer as if
 * committed: a retriever would run requests whose transaction was aborted, and the fleet fault
 * test saw 91 requests twice. Kafka's own client sorts the list by first offset and enters every
 * transaction that has begun before each record; so does this one. It also reads an abort marker
 * only from a control record, never from a data record whose key happens to be four zero bytes.
 */
import { replaceKafkajsModule } from './kafkajs-module-cache.ts';

/** A record of a fetched batch as kafkajs's decoder gives it (what the filter reads of it). */
export interface FetchedRecord {
  offset: string;
  key: Buffer | null;
  isControlRecord?: boolean;
  batchContext: { producerId: string; inTransaction: boolean };
}

/** An aborted transaction of a fetch response: its producer and the offset it began at. */
export interface AbortedTransaction {
  producerId: string;
  firstOffset: string;
}

/** A control record's key: version 0, then type 0 for an abort marker (1 is a commit). */
const ABORT_MARKER_KEY = Buffer.from([0, 0, 0, 0]);

function isAbortMarker(record: FetchedRecord): boolean {
  return record.isControlRecord === true && record.key !== null && Buffer.from(record.key).equals(ABORT_MARKER_KEY);
}

/** The records (control records kept: kafkajs drops them next) without those of aborted transactions. */
export function withoutAbortedRecords<R extends FetchedRecord>({ messages, abortedTransactions }: { messages: R[]; abortedTransactions?: readonly AbortedTransaction[] | null }): R[] {
  if (!abortedTransactions || abortedTransactions.length === 0) return messages;
  const byStart = abortedTransactions.map((transaction) => ({ producerId: transaction.producerId, start: BigInt(transaction.firstOffset) })).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const inAborted = new Set<string>();
  let next = 0;
  return messages.filter((record) => {
    const offset = BigInt(record.offset);
    while (next < byStart.length && byStart[next]!.start <= offset) inAborted.add(byStart[next++]!.producerId);
    const { producerId, inTransaction } = record.batchContext;
    if (isAbortMarker(record)) {
      inAborted.delete(producerId);
      return true;
    }
    return !(inTransaction && inAborted.has(producerId));
  });
}

replaceKafkajsModule({
  file: 'kafkajs/src/consumer/filterAbortedMessages.js',
  loadedBy: 'kafkajs/src/consumer/batch.js',
  replacement: withoutAbortedRecords.bind(null),
  marker: Symbol.for('skrya.kafkajs.readCommittedFilter'),
  replacedBy: 'runtime/kafkajs-read-committed.ts',
});
