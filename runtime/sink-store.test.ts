import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalStore, createS3Store, storeKey } from './sink-store.ts';

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

  it('a write is in place at once; flush syncs exactly the files written since the last flush; a non-durable store never syncs', async () => {
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
    expect(fs.readFileSync(path.join(root, 'acme', 'a.json'), 'utf8')).toBe('a');
    expect(synced).toEqual([]);
    await store.flush();
    expect(synced.sort()).toEqual([path.join('acme', 'a.json'), path.join('acme', 'b.json')]);
    await store.flush();
    expect(synced).toHaveLength(2);

    const staging = createLocalStore(path.join(root, 'staging'), { durable: false });
    await staging.write('run.json', '{}');
    await staging.flush();
    expect(synced).toHaveLength(2);
    vi.restoreAllMocks();
  });
  it.each([['durable', {}], ['non-durable (staging)', { durable: false }]])('a %s store replaces a file without changing a hard link to the old one, and leaves no temp file', async (_name, options) => {
    const original = path.join(root, 'original.json');
    fs.writeFileSync(original, 'original bytes');
    const store = createLocalStore(path.join(root, 'tree'), options);
    fs.mkdirSync(path.join(root, 'tree', 'normalized'), { recursive: true });
    fs.linkSync(original, path.join(root, 'tree', 'normalized', 'run.json'));
    const read = await store.read('normalized/run.json');
    await expect(store.write('normalized/run.json', 'replayed bytes', read)).resolves.toBe(true);
    expect(fs.readFileSync(path.join(root, 'tree', 'normalized', 'run.json'), 'utf8')).toBe('replayed bytes');
    expect(fs.readFileSync(original, 'utf8')).toBe('original bytes');
    expect(fs.readdirSync(path.join(root, 'tree', 'normalized'))).toEqual(['run.json']);
    await expect(store.write('normalized/run.json', 'late bytes', read)).rejects.toMatchObject({ code: 'STORAGE_CONFLICT' });
    await expect(store.write('normalized/run.json', 'replayed bytes')).resolves.toBe(false);
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
