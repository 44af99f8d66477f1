import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonlInput, readJsonlText } from './jsonl-input.ts';

const tempDir = () => mkdtemp(path.join(tmpdir(), 'skrya-jsonl-input-'));

describe('openJsonlInput', () => {
  // Several read chunks long, with multi-byte characters across their edges.
  const text = Array.from({ length: 6_000 }, (_line, index) => JSON.stringify({ url: `https://example.com/${index}`, title: `résumé ${'日本'.repeat(index % 5)}` })).join('\n');

  it('gives a file\'s bytes in order, its size known before it is read', async () => {
    const file = path.join(await tempDir(), 'results.jsonl');
    await writeFile(file, text);
    const input = await openJsonlInput(file);
    try {
      expect(input.size).toBe(Buffer.byteLength(text));
      const copies: Buffer[] = [];
      for await (const chunk of input.chunks()) copies.push(Buffer.from(chunk));
      expect(copies.length).toBeGreaterThan(2);
      expect(Buffer.concat(copies).toString('utf8')).toBe(text);
    } finally {
      await input.close();
    }
  });

  it('reads the whole text of a file for the commands that take it at once', async () => {
    const file = path.join(await tempDir(), 'results.jsonl');
    await writeFile(file, text);
    expect(await readJsonlText(file)).toEqual({ text, label: file });
  });

  it('says which input could not be opened, and why', async () => {
    const missing = path.join(await tempDir(), 'missing.jsonl');
    await expect(openJsonlInput(missing)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(`cannot read --jsonl ${missing}: ENOENT`) });
  });

  it('says which input could not be read, and why, when it opens but is no file (a directory)', async () => {
    const directory = await tempDir();
    await expect(readJsonlText(directory)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(`cannot read --jsonl ${directory}: EISDIR`) });
  });
});
