import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalStore } from '../../runtime/sink-store.ts';
import { MEMORY_FILE, MEMORY_MAX_RUNS, MEMORY_WINDOW_DAYS, emptyMemory, readMemory, remember, rememberedRun, runsBefore, writeMemory, type Evidence } from './evidence-memory.ts';

const evidence = (name: string, hash = 'aa'.repeat(8)): Evidence => ({ id: `it-${name}`, title: name, url: `https://example.com/${name}`, canonical_url: `https://example.com/${name}`, content_hash: hash });
const at = (day: number) => new Date(Date.UTC(2026, 10, 1) + day * 86_400_000).toISOString();
const stampOf = (iso: string) => iso.replace(/[-:.]/g, '');
const run = (day: number, kept: Evidence[] = [evidence('a')], cut: Evidence[] = []) => rememberedRun({ stamp: stampOf(at(day)), runId: `run-${day}`, requestedAt: at(day), kept, cut });

describe('evidence memory', () => {
  it('identifies evidence by canonical URL, or by content without a URL, and keeps cut items by identity only', () => {
    const remembered = run(0, [evidence('a')], [{ ...evidence('b'), canonical_url: null, url: null, content_hash: 'bb'.repeat(8) }]);
    expect(remembered.kept).toEqual([{ key: 'https://example.com/a', hash: 'aa'.repeat(8), id: 'it-a', title: 'a', url: 'https://example.com/a' }]);
    expect(remembered.cut).toEqual([[`content:${'bb'.repeat(8)}`, 'bb'.repeat(8)]]);
  });

  it('replaces a run remembered again (a redelivery) instead of adding it twice', () => {
    const once = remember(emptyMemory(), run(0));
    expect(remember(once, run(0))).toEqual(once);
  });

  it(`is bounded: at most ${MEMORY_MAX_RUNS} runs, none older than ${MEMORY_WINDOW_DAYS} days before the newest`, () => {
    let memory = emptyMemory();
    for (let day = 0; day < 20; day++) memory = remember(memory, run(day));
    expect(memory.runs).toHaveLength(20);
    memory = remember(memory, run(40));
    expect(memory.runs.map((entry) => entry.run_id)).toEqual([...Array.from({ length: 10 }, (_unused, index) => `run-${index + 10}`), 'run-40']);
    let many = emptyMemory();
    for (let step = 0; step < MEMORY_MAX_RUNS + 10; step++) many = remember(many, run(step / 10));
    expect(many.runs).toHaveLength(MEMORY_MAX_RUNS);
    expect(many.runs[0]!.run_id).toBe('run-1');
  });

  it('gives the runs before a run, oldest first, whatever arrived after it', () => {
    let memory = emptyMemory();
    for (const day of [3, 1, 2, 5]) memory = remember(memory, run(day));
    expect(runsBefore(memory, stampOf(at(3)), at(3)).map((entry) => entry.run_id)).toEqual(['run-1', 'run-2']);
    expect(runsBefore(memory, stampOf(at(1)), at(1))).toEqual([]);
  });

  it('survives a restart in the data tree, and an unreadable file is an empty memory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-memory-'));
    const store = createLocalStore(dir);
    try {
      expect((await readMemory(store, '')).memory).toEqual(emptyMemory());
      const memory = remember(emptyMemory(), run(0));
      await writeMemory(store, '', memory, null);
      expect((await readMemory(store, '')).memory).toEqual(memory);
      fs.writeFileSync(path.join(dir, MEMORY_FILE), '{"version":1,"runs":[{');
      expect((await readMemory(store, '')).memory).toEqual(emptyMemory());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads what the file holds now, not a memory it wrote or read before (another writer, a restored file)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-memory-'));
    const store = createLocalStore(dir);
    const file = path.join(dir, MEMORY_FILE);
    try {
      const written = remember(emptyMemory(), run(0));
      await writeMemory(store, '', written, null);
      await store.flush();
      const writtenText = fs.readFileSync(file, 'utf8');
      const other = remember(written, run(1, [evidence('b')]));
      fs.writeFileSync(file, `${JSON.stringify(other)}\n`);
      expect((await readMemory(store, '')).memory).toEqual(other);
      fs.writeFileSync(file, writtenText);
      expect((await readMemory(store, '')).memory).toEqual(written);
      // A text that was once read whole and is now cut short is unreadable again, not the memory it was.
      fs.writeFileSync(file, writtenText.slice(0, -10));
      expect((await readMemory(store, '')).memory).toEqual(emptyMemory());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
