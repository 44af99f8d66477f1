/**
 * kafkajs's read_committed filtering, corrected before kafkajs loads. Every runtime module that
 * imports kafkajs imports this module first.
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
import Module, { createRequire } from 'node:module';

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

/** Marks the filter kafkajs was given, so a second evaluation of this module knows it is in place. */
const INSTALLED = Symbol.for('skrya.kafkajs.readCommittedFilter');

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

/**
 * Puts withoutAbortedRecords in the place of kafkajs's filter in Node's module cache, so kafkajs's
 * consumer loads it instead. Throws if kafkajs's consumer was loaded already: the fix would not
 * take, and a consumer would read aborted records without a word.
 */
function installFilter(): void {
  const require = createRequire(import.meta.url);
  const filterFile = require.resolve('kafkajs/src/consumer/filterAbortedMessages.js');
  const batchFile = require.resolve('kafkajs/src/consumer/batch.js');
  // Ours already (this module evaluated again, as a test runner may): kafkajs loaded it, nothing to do.
  if ((require.cache[filterFile]?.exports as { [INSTALLED]?: true } | undefined)?.[INSTALLED] === true) return;
  if (require.cache[batchFile] !== undefined) {
    throw new Error('kafkajs was loaded before runtime/kafkajs-read-committed.ts: import it before kafkajs, or read_committed consumers may deliver aborted records');
  }
  const replacement = new Module(filterFile);
  replacement.filename = filterFile;
  replacement.loaded = true;
  replacement.exports = Object.assign(withoutAbortedRecords.bind(null), { [INSTALLED]: true as const });
  require.cache[filterFile] = replacement;
}

installFilter();
