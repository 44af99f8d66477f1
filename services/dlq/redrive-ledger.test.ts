import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireRedriveLock, ledgerFile, openRedriveLedger } from './redrive-ledger.ts';
import { storedLetter } from './testing/dead-letter-fixtures.ts';

const TOPIC = 't.x.dead-letters';
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-ledger-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const result = { topic: 't.x.raw-results', partition: 2, offset: '99' };
const at = new Date('2026-11-30T12:00:00Z');

describe('openRedriveLedger', () => {
  it('remembers re-driven letters across openings, under <data-root>/.dlq/', () => {
    const letter = storedLetter(0);
    const ledger = openRedriveLedger(root, TOPIC);
    expect(ledger.file).toBe(path.join(root, '.dlq', 't.x.dead-letters.redriven.jsonl'));
    expect(ledger.entryFor(letter)).toBeUndefined();
    ledger.append(letter, result, at);
    expect(ledger.entryFor(letter)).toMatchObject({ letter: '0:0', redriven_to: result, redriven_at: '2026-11-30T12:00:00.000Z', reason_code: 'SCHEMA_INVALID' });
    const reopened = openRedriveLedger(root, TOPIC);
    expect(reopened.entryFor(letter)).toEqual(ledger.entryFor(letter));
    expect(reopened.entryFor(storedLetter(1))).toBeUndefined();
  });

  it('does not take another letter at a reused offset (a recreated topic) for a re-driven one', () => {
    openRedriveLedger(root, TOPIC).append(storedLetter(0, {}, 'fp-old'), result, at);
    expect(openRedriveLedger(root, TOPIC).entryFor(storedLetter(0, {}, 'fp-new'))).toBeUndefined();
  });

  it('keeps ledgers of different dead-letter topics apart', () => {
    openRedriveLedger(root, TOPIC).append(storedLetter(0), result, at);
    expect(openRedriveLedger(root, 'dead-letters').entryFor(storedLetter(0))).toBeUndefined();
  });

  it('ignores a line torn by a crash and starts the next entry on its own line', () => {
    const file = ledgerFile(root, TOPIC);
    openRedriveLedger(root, TOPIC).append(storedLetter(0), result, at);
    fs.appendFileSync(file, '{"letter":"0:1","fingerp');
    const ledger = openRedriveLedger(root, TOPIC);
    expect(ledger.entryFor(storedLetter(1))).toBeUndefined();
    ledger.append(storedLetter(2), result, at);
    const reopened = openRedriveLedger(root, TOPIC);
    expect([0, 1, 2].map((offset) => reopened.entryFor(storedLetter(offset)) !== undefined)).toEqual([true, false, true]);
  });
});

describe('acquireRedriveLock', () => {
  it('lets one re-drive run at a time and frees the lock on release', () => {
    const release = acquireRedriveLock(root, TOPIC);
    expect(() => acquireRedriveLock(root, TOPIC)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    release();
    acquireRedriveLock(root, TOPIC)();
  });
});
