import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFileAtomicRenamedLater, replaceFileUnlinked, writeFileAtomic } from './write-atomic.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-atomic-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function filesUnder(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).map((entry) => entry.split(path.sep).join('/')).sort();
}

describe('writeFileAtomic', () => {
  it('creates missing folders, writes the bytes and leaves no temp file', () => {
    const file = path.join(dir, 'a', 'b', 'latest.json');
    expect(writeFileAtomic(file, '{"x":1}\n')).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"x":1}\n');
    expect(filesUnder(dir)).toEqual(['a', 'a/b', 'a/b/latest.json']);
  });

  it('returns false and leaves the file untouched when the bytes are already there', () => {
    const file = path.join(dir, 'digest.md');
    writeFileAtomic(file, '# topic\n');
    const before = fs.statSync(file);
    expect(writeFileAtomic(file, '# topic\n')).toBe(false);
    expect(fs.statSync(file).ino).toBe(before.ino);
    expect(filesUnder(dir)).toEqual(['digest.md']);
  });


  it('replaces different bytes', () => {
    const file = path.join(dir, 'digest.md');
    writeFileAtomic(file, 'old');
    expect(writeFileAtomic(file, 'new, longer content')).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('new, longer content');
    expect(filesUnder(dir)).toEqual(['digest.md']);
  });

  it('writes non-ASCII text byte for byte', () => {
    const file = path.join(dir, 'zh.md');
    writeFileAtomic(file, 'AI 浏览器 ⭐0.72\n');
    expect(fs.readFileSync(file)).toEqual(Buffer.from('AI 浏览器 ⭐0.72\n', 'utf8'));
  });

  it('removes its temp file when the write fails', () => {
    const target = path.join(dir, 'occupied');
    fs.mkdirSync(path.join(target, 'child'), { recursive: true });
    expect(() => writeFileAtomic(target, 'x')).toThrow();
    expect(filesUnder(dir)).toEqual(['occupied', 'occupied/child']);
  });
});

describe('replaceFileAtomicRenamedLater', () => {
  it('creates missing folders and, once settled, has the bytes under the name and no temp file', async () => {
    const file = path.join(dir, 'normalized', 'run.json');
    await replaceFileAtomicRenamedLater(file, '{"run":1}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"run":1}\n');
    expect(filesUnder(dir)).toEqual(['normalized', 'normalized/run.json']);
  });

  it('replaces a file as a new one: another link to the old file keeps the old bytes, and a reader never sees a mix', async () => {
    const file = path.join(dir, 'latest-ingest.json');
    fs.writeFileSync(file, 'old');
    const link = path.join(dir, 'linked');
    fs.linkSync(file, link);
    const replacing = replaceFileAtomicRenamedLater(file, 'new, longer content');
    // Before the rename lands the name holds the old bytes whole.
    expect(['old', 'new, longer content']).toContain(fs.readFileSync(file, 'utf8'));
    await replacing;
    expect(fs.readFileSync(file, 'utf8')).toBe('new, longer content');
    expect(fs.readFileSync(link, 'utf8')).toBe('old');
    expect(filesUnder(dir)).toEqual(['latest-ingest.json', 'linked']);
  });

  it('rejects when the rename fails and leaves no temp file', async () => {
    const target = path.join(dir, 'occupied');
    fs.mkdirSync(path.join(target, 'child'), { recursive: true });
    await expect(replaceFileAtomicRenamedLater(target, 'x')).rejects.toThrow();
    expect(filesUnder(dir)).toEqual(['occupied', 'occupied/child']);
  });
});

describe('replaceFileUnlinked', () => {
  it('writes a new file under the name: another link to the old file keeps the old bytes', async () => {
    const original = path.join(dir, 'original.json');
    fs.writeFileSync(original, 'old');
    const file = path.join(dir, 'staging', 'run.json');
    fs.mkdirSync(path.dirname(file));
    fs.linkSync(original, file);
    await replaceFileUnlinked(file, 'new, longer content', true);
    expect(fs.readFileSync(file, 'utf8')).toBe('new, longer content');
    expect(fs.readFileSync(original, 'utf8')).toBe('old');
  });

  it('creates missing folders, and refuses to replace a folder', async () => {
    await replaceFileUnlinked(path.join(dir, 'a', 'b.json'), '{}', false);
    expect(filesUnder(dir)).toEqual(['a', 'a/b.json']);
    fs.mkdirSync(path.join(dir, 'occupied', 'child'), { recursive: true });
    await expect(replaceFileUnlinked(path.join(dir, 'occupied'), 'x', false)).rejects.toThrow();
    expect(filesUnder(dir)).toEqual(['a', 'a/b.json', 'occupied', 'occupied/child']);
  });
});
