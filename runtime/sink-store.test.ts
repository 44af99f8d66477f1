import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalStore, createS3Store, createStagingStore, storeKey, type SinkStore, type StagingStore } from './sink-store.ts';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-store-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('storeKey', () => {
  it.each([['..'], ['a/../b'], ['.hidden'], ['a//b'], ['a\\b'], ['/abs']])('refuses %s before it becomes a path or an object name', (part) => {
    expect(() => storeKey('acme', part)).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
  });

  it('joins segments and skips empty parts (a replay store is its own root)', () => {
    expect(storeKey('', 'normalized', '20260425T023000000Z.json')).toBe('normalized/20260425T023000000Z.json');
    expect(storeKey('acme/runs/ai-browser/ingest', 'latest-ingest.json')).toBe('acme/runs/ai-browser/ingest/latest-ingest.json');
  });
});

describe('createLocalStore', () => {
  it('writes whole files, reports unchanged bytes, and lists one folder', async () => {
    const store = createLocalStore(root);
    expect(await store.write('acme/a.json', '{}\n')).toBe(true);
    expect(await store.write('acme/a.json', '{}\n')).toBe(false);
    expect((await store.read('acme/a.json'))?.content).toBe('{}\n');
    expect(await store.read('acme/missing.json')).toBeNull();
    expect(await store.list('acme')).toEqual(['a.json']);
    expect(await store.list('nowhere')).toEqual([]);
  });

  it('refuses a conditional write over a file that changed since it was read', async () => {
    const store = createLocalStore(root);
    await expect(store.write('acme/a.json', 'first', null)).resolves.toBe(true);
    const first = await store.read('acme/a.json');
    await expect(store.write('acme/a.json', 'racing', null)).rejects.toMatchObject({ code: 'STORAGE_CONFLICT', retriable: true });
    await store.write('acme/a.json', 'second', first);
    await expect(store.write('acme/a.json', 'third', first)).rejects.toMatchObject({ code: 'STORAGE_CONFLICT' });
    expect((await store.read('acme/a.json'))?.content).toBe('second');
  });

  it('a write reads back at once and is in place by the flush; flush syncs exactly the files written since the last flush; a staging store never syncs', async () => {
    const synced: string[] = [];
    const open = fs.promises.open.bind(fs.promises);
    vi.spyOn(fs.promises, 'open').mockImplementation(async (file, ...rest) => {
      synced.push(path.relative(root, String(file)));
      return open(file, ...rest);
    });
    const store = createLocalStore(root);
    await store.write('acme/a.json', 'a');
    await store.write('acme/b.json', 'b');
    await store.write('acme/b.json', 'b');
    expect((await store.read('acme/a.json'))?.content).toBe('a');
    expect(synced).toEqual([]);
    await store.flush();
    expect(fs.readFileSync(path.join(root, 'acme', 'b.json'), 'utf8')).toBe('b');
    expect(synced.sort()).toEqual([path.join('acme', 'a.json'), path.join('acme', 'b.json')]);
    await store.flush();
    expect(synced).toHaveLength(2);

    const staging = createStagingStore(path.join(root, 'staging'));
    await staging.write('run.json', '{}');
    await staging.flush();
    await staging.settled();
    expect(synced).toHaveLength(2);
    vi.restoreAllMocks();
  });
  it.each<[string, (root: string) => SinkStore & Partial<StagingStore>]>([['local', createLocalStore], ['staging', createStagingStore]])('a %s store replaces a file without changing a hard link to the old one, and leaves no temp file', async (_name, create) => {
    const original = path.join(root, 'original.json');
    fs.writeFileSync(original, 'original bytes');
    const store = create(path.join(root, 'tree'));
    fs.mkdirSync(path.join(root, 'tree', 'normalized'), { recursive: true });
    fs.linkSync(original, path.join(root, 'tree', 'normalized', 'run.json'));
    const read = await store.read('normalized/run.json');
    await expect(store.write('normalized/run.json', 'replayed bytes', read)).resolves.toBe(true);
    await store.flush();
    await store.settled?.();
    expect(fs.readFileSync(path.join(root, 'tree', 'normalized', 'run.json'), 'utf8')).toBe('replayed bytes');
    expect(fs.readFileSync(original, 'utf8')).toBe('original bytes');
    expect(fs.readdirSync(path.join(root, 'tree', 'normalized'))).toEqual(['run.json']);
    await expect(store.write('normalized/run.json', 'late bytes', read)).rejects.toMatchObject({ code: 'STORAGE_CONFLICT' });
    await expect(store.write('normalized/run.json', 'replayed bytes')).resolves.toBe(false);
  });
});

/**
 * Holds libuv's thread pool busy (pbkdf2 jobs of a tenth of a second or so, more than its threads),
 * so a rename the store starts waits in the pool's queue and has not landed when the next call comes.
 */
function occupyThreadPool(): Promise<unknown> {
  return Promise.all(Array.from({ length: 8 }, () => new Promise((resolve, reject) => {
    crypto.pbkdf2('password', 'salt', 200_000, 32, 'sha256', (error, key) => (error ? reject(error) : resolve(key)));
  })));
}

describe('createLocalStore, its renames in the thread pool', () => {
  it('a read, a listing of the folder and a second write of a file wait for its rename', async () => {
    const store = createLocalStore(root);
    const busy = occupyThreadPool();
    await store.write('acme/normalized/run.json', 'first', null);
    expect(await store.list('acme/normalized')).toEqual(['run.json']);
    await busy;
    const written = occupyThreadPool();
    await store.write('acme/normalized/other.json', 'other', null);
    expect((await store.read('acme/normalized/other.json'))?.content).toBe('other');
    await written;
    const first = await store.read('acme/normalized/run.json');
    await store.write('acme/normalized/run.json', 'second', first);
    await store.write('acme/normalized/run.json', 'third');
    await store.flush();
    expect(fs.readFileSync(path.join(root, 'acme', 'normalized', 'run.json'), 'utf8')).toBe('third');
    expect(fs.readdirSync(path.join(root, 'acme', 'normalized')).sort()).toEqual(['other.json', 'run.json']);
  });

  it('a rename that fails fails every flush, whoever flushes, until the file is written again; no temp file is left', async () => {
    const store = createLocalStore(root);
    // A folder where the file should go: the rename over it fails (EISDIR).
    fs.mkdirSync(path.join(root, 'acme', 'latest-ingest.json', 'child'), { recursive: true });
    await store.write('acme/digest.md', 'digest');
    await expect(store.write('acme/latest-ingest.json', '{}')).resolves.toBe(true);
    await expect(store.flush()).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    // Another partition's handler, with files of its own, flushes next: it must not commit either.
    await store.write('other/digest.md', 'other digest');
    await expect(store.flush()).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(fs.readdirSync(path.join(root, 'acme')).sort()).toEqual(['digest.md', 'latest-ingest.json']);
    fs.rmSync(path.join(root, 'acme', 'latest-ingest.json'), { recursive: true });
    await store.write('acme/latest-ingest.json', '{}');
    await expect(store.flush()).resolves.toBeUndefined();
    expect(fs.readFileSync(path.join(root, 'acme', 'latest-ingest.json'), 'utf8')).toBe('{}');
  });

  it('a failed write stops failing flushes once the file holds what is written next', async () => {
    const store = createLocalStore(root);
    fs.mkdirSync(path.join(root, 'acme', 'digest.md', 'child'), { recursive: true });
    await store.write('acme/digest.md', 'new digest');
    await expect(store.flush()).rejects.toThrow();
    fs.rmSync(path.join(root, 'acme', 'digest.md'), { recursive: true });
    fs.writeFileSync(path.join(root, 'acme', 'digest.md'), 'restored digest');
    await expect(store.write('acme/digest.md', 'restored digest')).resolves.toBe(false);
    await expect(store.flush()).resolves.toBeUndefined();
  });
});

describe('createStagingStore', () => {
  it('reads and lists its own writes before they land, and settles once they have', async () => {
    const store = createStagingStore(root);
    const keys = Array.from({ length: 40 }, (_unused, index) => `normalized/${String(index).padStart(2, '0')}.json`);
    for (const [index, key] of keys.entries()) await store.write(key, `run ${index}`, null);
    await store.write(keys[0]!, 'run 0, again', { content: 'run 0', version: '' });
    // Read back whether it is remembered or forgotten and still being written.
    expect(await Promise.all(keys.map(async (key) => (await store.read(key))?.content))).toEqual(['run 0, again', ...keys.slice(1).map((_key, index) => `run ${index + 1}`)]);
    expect((await store.list('normalized')).sort()).toEqual(keys.map((key) => key.slice('normalized/'.length)));
    await store.settled();
    expect(fs.readFileSync(path.join(root, keys[0]!), 'utf8')).toBe('run 0, again');
    expect(fs.readFileSync(path.join(root, keys[39]!), 'utf8')).toBe('run 39');
  });

  it('reports a write that failed at the next flush, read, write and when settled', async () => {
    const store = createStagingStore(root);
    fs.mkdirSync(path.join(root, 'occupied', 'child'), { recursive: true });
    // The folder reads as no file, so the write goes ahead and fails in the background.
    await expect(store.write('occupied', 'x')).resolves.toBe(true);
    await expect(store.settled()).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(store.flush()).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(store.read('other.json')).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(store.write('other.json', 'y')).rejects.toMatchObject({ code: 'EEXIST' });
  });
});

describe('createS3Store', () => {
  it('names an unreachable endpoint as retriable STORAGE_UNAVAILABLE, so the message is retried, never dead-lettered', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'skrya');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    // Port 9 (discard) has no listener here: the connection is refused at once.
    const store = createS3Store({ bucket: 'skrya', prefix: '', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true });
    await expect(store.check()).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE', retriable: true, message: expect.stringContaining('s3://skrya at http://127.0.0.1:9') });
    await expect(store.write('acme/a.json', '{}', null)).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
  }, 60_000);

  it('names missing credentials as STORAGE_REFUSED, saying what to set', async () => {
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI']) vi.stubEnv(name, undefined);
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', path.join(root, 'none'));
    vi.stubEnv('AWS_CONFIG_FILE', path.join(root, 'none'));
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    const store = createS3Store({ bucket: 'skrya', prefix: '', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true });
    await expect(store.check()).rejects.toMatchObject({ code: 'STORAGE_REFUSED', message: expect.stringContaining('no credentials were found') });
  }, 60_000);
});
