import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { withoutAbortedRecords, type FetchedRecord } from './kafkajs-read-committed.ts';

const ABORT = Buffer.from([0, 0, 0, 0]);
const COMMIT = Buffer.from([0, 0, 0, 1]);

/** A data record of a producer's transaction, or (marker) its transaction's end. */
function record(offset: number, producerId: string, options: { marker?: Buffer; transactional?: boolean; key?: Buffer } = {}): FetchedRecord & { name: string } {
  return {
    name: `${producerId}@${offset}`,
    offset: String(offset),
    key: options.marker ?? options.key ?? Buffer.from('k'),
    isControlRecord: options.marker !== undefined,
    batchContext: { producerId, inTransaction: options.transactional ?? true },
  };
}

const kept = (records: Array<FetchedRecord & { name: string }>) => records.filter((entry) => entry.isControlRecord !== true).map((entry) => entry.name);

describe('withoutAbortedRecords', () => {
  it('drops the records of every aborted transaction, whatever order the fetch lists them in', () => {
    // A began first and was aborted last: the broker lists B first.
    const messages = [record(0, 'A'), record(1, 'B'), record(2, 'B', { marker: ABORT }), record(3, 'A', { marker: ABORT }), record(4, 'C'), record(5, 'C', { marker: COMMIT })];
    const abortedTransactions = [{ producerId: 'B', firstOffset: '1' }, { producerId: 'A', firstOffset: '0' }];
    expect(kept(withoutAbortedRecords({ messages, abortedTransactions }))).toEqual(['C@4']);
  });

  it('drops transactions that began before the first fetched record, all of them from that record on', () => {
    const messages = [record(10, 'B'), record(11, 'A'), record(12, 'A', { marker: ABORT }), record(13, 'B', { marker: ABORT })];
    const abortedTransactions = [{ producerId: 'A', firstOffset: '3' }, { producerId: 'B', firstOffset: '7' }];
    expect(kept(withoutAbortedRecords({ messages, abortedTransactions }))).toEqual([]);
  });

  it('keeps a producer\'s later committed transaction, and records outside transactions', () => {
    const messages = [record(0, 'A'), record(1, 'A', { marker: ABORT }), record(2, 'A'), record(3, 'A', { marker: COMMIT }), record(4, 'X', { transactional: false })];
    expect(kept(withoutAbortedRecords({ messages, abortedTransactions: [{ producerId: 'A', firstOffset: '0' }] }))).toEqual(['A@2', 'X@4']);
  });

  it('reads an abort marker only from a control record, not from a data record keyed with four zero bytes', () => {
    const messages = [record(0, 'A'), record(1, 'A', { key: ABORT }), record(2, 'A', { marker: ABORT })];
    expect(kept(withoutAbortedRecords({ messages, abortedTransactions: [{ producerId: 'A', firstOffset: '0' }] }))).toEqual([]);
  });

  it('hands records back untouched when nothing in the fetch was aborted', () => {
    const messages = [record(0, 'A'), record(1, 'A', { marker: COMMIT })];
    expect(withoutAbortedRecords({ messages, abortedTransactions: [] })).toBe(messages);
  });

  it('is the filter kafkajs\'s consumer loads', () => {
    const require = createRequire(import.meta.url);
    const filter = require('kafkajs/src/consumer/filterAbortedMessages.js') as typeof withoutAbortedRecords;
    const messages = [record(0, 'A'), record(1, 'B'), record(2, 'B', { marker: ABORT }), record(3, 'A', { marker: ABORT })];
    expect(kept(filter({ messages, abortedTransactions: [{ producerId: 'B', firstOffset: '1' }, { producerId: 'A', firstOffset: '0' }] }))).toEqual([]);
  });
});
