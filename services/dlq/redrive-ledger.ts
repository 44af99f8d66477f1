/**
 * Which dead letters were re-driven, so a second `skrya dlq replay` does not send them again:
 * an append-only JSON-lines file per dead-letter topic under <data-root>/.dlq/, one line per
 * letter, written and fsynced after the broker acknowledged the re-driven message. A letter is
 * known by its address and the fingerprint of its bytes, so a recreated topic that reuses offsets
 * is not mistaken for the old one. A crash between the acknowledgement and the line re-drives
 * that one letter again next time: at least once, and downstream writes are idempotent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { RedriveResult, StoredDeadLetter } from '../../runtime/dead-letters.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { resolveInside } from '../../runtime/ids.ts';
import { letterAddress } from './select-letters.ts';

export const LEDGER_DIR = '.dlq';

const entrySchema = z.object({
  letter: z.string(),
  fingerprint: z.string(),
  reason_code: z.string(),
  source: z.object({ topic: z.string(), partition: z.number(), offset: z.string() }),
  redriven_to: z.object({ topic: z.string(), partition: z.number(), offset: z.string() }),
  redriven_at: z.string(),
});
export type RedriveEntry = z.infer<typeof entrySchema>;

export interface RedriveLedger {
  file: string;
  entryFor(stored: StoredDeadLetter): RedriveEntry | undefined;
  append(stored: StoredDeadLetter, result: RedriveResult, at: Date): void;
}

const identity = (address: string, fingerprint: string) => `${address}#${fingerprint}`;

export function ledgerFile(dataRoot: string, deadLetterTopic: string): string {
  return resolveInside(dataRoot, LEDGER_DIR, `${deadLetterTopic}.redriven.jsonl`);
}

/** Lines that do not parse (a line torn by a crash) are not entries: their letters count as not re-driven. */
function readEntries(file: string): RedriveEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      const parsed = entrySchema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}

/** A line torn by a crash has no newline: the next entry must start on a line of its own. */
function endsTorn(handle: number): boolean {
  const size = fs.fstatSync(handle).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  fs.readSync(handle, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

export function openRedriveLedger(dataRoot: string, deadLetterTopic: string): RedriveLedger {
  const file = ledgerFile(dataRoot, deadLetterTopic);
  const entries = new Map(readEntries(file).map((entry) => [identity(entry.letter, entry.fingerprint), entry]));
  return {
    file,
    entryFor: (stored) => entries.get(identity(letterAddress(stored), stored.fingerprint)),
    append(stored, result, at) {
      const entry: RedriveEntry = {
        letter: letterAddress(stored),
        fingerprint: stored.fingerprint,
        reason_code: stored.letter.reason_code,
        source: { topic: stored.letter.source_topic, partition: stored.letter.source_partition, offset: stored.letter.source_offset },
        redriven_to: result,
        redriven_at: at.toISOString(),
      };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const handle = fs.openSync(file, 'a+');
      try {
        fs.writeSync(handle, `${endsTorn(handle) ? '\n' : ''}${JSON.stringify(entry)}\n`);
        fs.fsyncSync(handle);
      } finally {
        fs.closeSync(handle);
      }
      entries.set(identity(entry.letter, entry.fingerprint), entry);
    },
  };
}

/** One re-drive at a time per dead-letter topic; returns the release. A lock left by a crash names its file. */
export function acquireRedriveLock(dataRoot: string, deadLetterTopic: string): () => void {
  const file = resolveInside(dataRoot, LEDGER_DIR, `${deadLetterTopic}.lock`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new SkryaError('INVALID_INPUT', `another dlq replay holds ${file} (pid ${fs.readFileSync(file, 'utf8').trim()}); if no such process runs, delete the file and retry`);
  }
  return () => fs.rmSync(file, { force: true });
}
