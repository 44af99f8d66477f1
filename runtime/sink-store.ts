/**
 * Where the sink's files go: one interface over a local folder and an S3-compatible bucket, so
 * sinks on several machines can share one tenant's tree without a shared volume.
 *
 * Keys are '/'-joined segments below the store's root (a folder, or the bucket and its prefix),
 * built from validated ids (data-paths.ts); every key is checked again here before it becomes a
 * path or an object name. A write is atomic for its readers either way (temp file + rename; one
 * PUT). A conditional write (`expected`) succeeds only while the object is still what the writer
 * read: a sink that lost its partition to another machine mid-batch cannot overwrite the newer
 * owner's file (S3 If-Match / If-None-Match; STORAGE_CONFLICT, retried from a fresh read).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { SkryaConfig } from './config.ts';
import { SkryaError } from './errors.ts';
import { resolveInside } from './ids.ts';
import { readTextIfAny, replaceFileAtomicRenamedLater, replaceFileUnlinked, syncFiles } from './write-atomic.ts';

/** A file's text and the version it was read at (an ETag in a bucket, a content hash on disk). */
export interface StoredText {
  content: string;
  version: string;
}

export interface SinkStore {
  /** For logs and errors: the folder, or s3://bucket/prefix at the endpoint. */
  readonly where: string;
  read(key: string): Promise<StoredText | null>;
  /**
   * Writes `content` at `key`; false when those bytes were already there. `expected`: undefined =
   * whatever is there; null = only if nothing is there; a StoredText = only if it is still that
   * version. Otherwise STORAGE_CONFLICT.
   */
  write(key: string, content: string, expected?: StoredText | null): Promise<boolean>;
  /** Names of the files directly below `prefix`. */
  list(prefix: string): Promise<string[]>;
  /** Proves the store can be reached with these settings (at service start). */
  check(): Promise<void>;
  /** Resolves once every write made before it is durable: the sink calls it before its offset may be committed. */
  flush(): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Joins key parts ('' parts are skipped) and refuses any segment that could escape or alias another key. */
export function storeKey(...parts: string[]): string {
  const segments = parts.filter((part) => part !== '').flatMap((part) => part.split('/'));
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment.includes('..')) throw new SkryaError('INVALID_ID', `storage key segment ${JSON.stringify(segment)} is not allowed`, { details: { parts } });
  }
  return segments.join('/');
}

const versionOf = (content: string) => createHash('sha256').update(content).digest('hex');

function conflict(where: string, key: string): SkryaError {
  return new SkryaError('STORAGE_CONFLICT', `${where}/${key} changed since it was read (another sink wrote it); reading it again`, { details: { key } });
}

/** The file a key names under `root`, checked (storeKey) before it becomes a path. */
const localFile = (root: string, key: string) => resolveInside(root, ...storeKey(key).split('/'));

/** The text as a stored version; hashed only if asked, as the local stores' conditions compare the text itself. */
const localText = (content: string | null): StoredText | null => (content === null ? null : { content, get version() { return versionOf(content); } });

/** The names of the files directly below a local folder (none when it is missing). */
function listFolder(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile() && !entry.name.startsWith('.')).map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * The local data tree. Its conditional writes assume one writer per topic (the partition's owner), as
 * the sink always has. Files are renamed into place without an fsync each and synced together at
 * flush: a run's four fsyncs in sequence (~9 ms each on the bench VM) blocked the event loop the other
 * stages share, concurrent ones take about a third of that; a crash before the flush leaves the offset
 * uncommitted, and the redelivered batch writes the files again. The renames go on in the thread pool
 * (replaceFileAtomicRenamedLater), so a batch's files may land in any order, each whole; a read, a
 * write or a listing waits for the renames of its files, and the flush for every rename.
 */
export function createLocalStore(root: string): SinkStore {
  const fileOf = (key: string) => localFile(root, key);
  const unsynced = new Set<string>();
  // Each file's rename under way, or failed: a failed one stays until the file is written again, and
  // fails every flush meanwhile (any flush, as a flush cannot tell whose batch wrote the file).
  const renaming = new Map<string, Promise<void>>();
  // Handlers of several partitions share the store: a flush waits for every sync started before it too.
  let syncing: Promise<void> = Promise.resolve();
  /** Once the file's last write has landed or failed; a failure is for the flush to report. */
  const landed = async (file: string) => {
    await renaming.get(file)?.catch(() => {});
  };
  /** The file's text, its last write landed first. */
  const textOf = async (file: string) => {
    await landed(file);
    return readTextIfAny(file);
  };
  return {
    where: path.resolve(root),
    async read(key) {
      return localText(await textOf(fileOf(key)));
    },
    async write(key, content, expected) {
      const file = fileOf(key);
      // Read once: for the condition and to leave identical bytes alone.
      const current = await textOf(file);
      if (expected !== undefined && current !== (expected?.content ?? null)) throw conflict(path.resolve(root), key);
      if (current === content) {
        // The file holds these bytes: a write of it that failed before no longer matters.
        renaming.delete(file);
        return false;
      }
      const rename = replaceFileAtomicRenamedLater(file, content);
      renaming.set(file, rename);
      rename.then(() => {
        if (renaming.get(file) === rename) renaming.delete(file);
      }, () => {});
      unsynced.add(file);
      return true;
    },
    async list(prefix) {
      const folder = fileOf(prefix);
      // A file written there is listed once it is under its name.
      await Promise.all([...renaming.keys()].filter((file) => path.dirname(file) === folder).map(landed));
      return listFolder(folder);
    },
    async check() {
      fs.mkdirSync(path.resolve(root), { recursive: true });
    },
    async flush() {
      const files = [...unsynced];
      unsynced.clear();
      // A failed rename fails the flush, so no batch's offset is committed until the file is written again.
      const failed = (await Promise.allSettled(renaming.values())).find((result) => result.status === 'rejected');
      if (failed !== undefined) {
        for (const file of files) unsynced.add(file);
        throw failed.reason;
      }
      syncing = Promise.all([syncing, syncFiles(files)]).then(() => undefined);
      await syncing;
    },
  };
}

/** A staging folder's store: `settled` resolves once every write has reached the folder, and fails with the first that did not. */
export interface StagingStore extends SinkStore {
  settled(): Promise<void>;
}

/** More than the files one sink batch reads and writes (its run, latest-ingest.json, digest.md, the evidence memory). */
const STAGING_REMEMBERED_FILES = 16;
/** Writes started and not finished, at most: a disk that falls behind holds up the writer, not memory. */
const STAGING_WRITES_IN_FLIGHT = 64;

/**
 * A replay's staging folder: no reader sees it before it is complete and synced whole
 * (replay-topic.ts), and this store is its only writer. So files are replaced without temp files,
 * renames or fsyncs (replaceFileUnlinked); the store remembers the text of the files it read or
 * wrote last, so the sink's reads of the same few files every batch, and each write's own read,
 * need no file; and writes go on in the thread pool while the event loop scores the next records.
 * A flush only reports a write that failed: nothing here is durable before the folder is synced,
 * and the folder is synced, read or removed only once the store has `settled`.
 */
export function createStagingStore(root: string): StagingStore {
  const fileOf = (key: string) => localFile(root, key);
  // By key, least recently used first.
  const remembered = new Map<string, string | null>();
  // Each file's latest write, chained after the one before it, until it is done.
  const writes = new Map<string, Promise<void>>();
  let failure: { error: unknown } | null = null;

  function throwIfFailed(): void {
    if (failure) throw failure.error;
  }

  function remember(key: string, content: string | null): void {
    remembered.delete(key);
    remembered.set(key, content);
    if (remembered.size > STAGING_REMEMBERED_FILES) remembered.delete(remembered.keys().next().value!);
  }

  async function textOf(key: string): Promise<string | null> {
    throwIfFailed();
    const known = remembered.get(key);
    if (known !== undefined) return known;
    const file = fileOf(key);
    // Forgotten while its write is still going on: read once that has landed.
    await writes.get(file);
    const content = readTextIfAny(file);
    remember(key, content);
    return content;
  }

  async function settled(): Promise<void> {
    await Promise.all(writes.values());
    throwIfFailed();
  }

  return {
    where: path.resolve(root),
    settled,
    async read(key) {
      return localText(await textOf(key));
    },
    async write(key, content, expected) {
      const current = await textOf(key);
      if (expected !== undefined && current !== (expected?.content ?? null)) throw conflict(path.resolve(root), key);
      if (current === content) return false;
      while (writes.size >= STAGING_WRITES_IN_FLIGHT) await writes.values().next().value;
      remember(key, content);
      const file = fileOf(key);
      const written: Promise<void> = (writes.get(file) ?? Promise.resolve())
        .then(() => replaceFileUnlinked(file, content, current !== null))
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .then(() => {
          if (writes.get(file) === written) writes.delete(file);
        });
      writes.set(file, written);
      return true;
    },
    async list(prefix) {
      throwIfFailed();
      // Files here are only ever added or replaced: one still being written is there (and may be missing from the folder for a moment).
      const folder = fileOf(prefix);
      const names = new Set(listFolder(folder));
      for (const file of writes.keys()) if (path.dirname(file) === folder) names.add(path.basename(file));
      return [...names];
    },
    async check() {
      fs.mkdirSync(path.resolve(root), { recursive: true });
    },
    async flush() {
      throwIfFailed();
    },
  };
}

export interface S3StoreSettings {
  bucket: string;
  /** Below which every key goes ('' = the bucket's root). */
  prefix: string;
  /** An S3-compatible endpoint; empty = AWS. */
  endpoint: string;
  region: string;
  forcePathStyle: boolean;
}

const REFUSED = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'NoSuchBucket', 'NotFound', 'Forbidden', 'InvalidBucketName', 'ExpiredToken', 'InvalidToken']);

/** An S3 failure as a Skrya error. All are retriable: the message is fine, so it must never be dead-lettered. */
function storageError(error: unknown, where: string, what: string): SkryaError {
  const name = error instanceof Error ? error.name : 'Error';
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const detail = error instanceof Error ? error.message : String(error);
  if (status === 412 || name === 'ConditionalRequestConflict') return new SkryaError('STORAGE_CONFLICT', `${where}: ${what} lost a race with another writer; reading it again`, { cause: error });
  if (REFUSED.has(name) || name === 'CredentialsProviderError' || status === 403 || (status === 404 && what === 'checking the bucket')) {
    const why = name === 'CredentialsProviderError' ? 'no credentials were found' : name === 'NoSuchBucket' || status === 404 ? 'the bucket does not exist' : `the credentials were refused (${name})`;
    return new SkryaError('STORAGE_REFUSED', `${where}: ${what} failed: ${why}: check SKRYA_SINK_S3_BUCKET and the AWS credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or a profile); nothing is committed until it succeeds`, { cause: error, details: { name, status } });
  }
  return new SkryaError('STORAGE_UNAVAILABLE', `${where}: ${what} failed: ${detail}; nothing is committed until the bucket answers`, { cause: error, details: { name, status } });
}

export function createS3Store(settings: S3StoreSettings): SinkStore {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // A bucket that stops answering (packets dropped, not refused) fails the request instead of
    // holding the sink forever; the runner then retries it as STORAGE_UNAVAILABLE.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
  });
  const base = storeKey(settings.prefix);
  const objectKey = (key: string) => storeKey(base, key);
  const where = `s3://${settings.bucket}${base ? `/${base}` : ''}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
  const Bucket = settings.bucket;

  async function read(key: string): Promise<StoredText | null> {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
      return { content: (await answer.Body?.transformToString('utf8')) ?? '', version: answer.ETag ?? '' };
    } catch (error) {
      if ((error as Error).name === 'NoSuchKey') return null;
      throw storageError(error, where, `reading ${key}`);
    }
  }

  async function put(key: string, content: string, condition: { IfMatch?: string; IfNoneMatch?: string }): Promise<void> {
    try {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: content, ContentType: key.endsWith('.json') ? 'application/json' : 'text/plain; charset=utf-8', ...condition }));
    } catch (error) {
      throw storageError(error, where, `writing ${key}`);
    }
  }

  return {
    where,
    read,
    async write(key, content, expected) {
      if (expected !== undefined) {
        if (expected?.content === content) return false;
        await put(key, content, expected === null ? { IfNoneMatch: '*' } : { IfMatch: expected.version });
        return true;
      }
      // Unconditional (raw files, same bytes on every redelivery): create, or compare and replace.
      try {
        await put(key, content, { IfNoneMatch: '*' });
        return true;
      } catch (error) {
        if ((error as SkryaError).code !== 'STORAGE_CONFLICT') throw error;
        const current = await read(key);
        if (current?.content === content) return false;
        await put(key, content, current === null ? { IfNoneMatch: '*' } : { IfMatch: current.version });
        return true;
      }
    },
    async list(prefix) {
      const below = `${objectKey(prefix)}/`;
      const names: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: below, Delimiter: '/', ContinuationToken: token })).catch((error: unknown) => {
          throw storageError(error, where, `listing ${prefix}`);
        });
        for (const object of page.Contents ?? []) if (object.Key) names.push(object.Key.slice(below.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return names;
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw storageError(error, where, 'checking the bucket');
      }
    },
    // A PUT is durable once S3 answers it.
    async flush() {},
  };
}

/** The store the configuration names: the bucket when SKRYA_SINK_S3_BUCKET is set, else the local data root. */
export function sinkStoreOf(config: SkryaConfig): SinkStore {
  if (config.SKRYA_SINK_S3_BUCKET === '') return createLocalStore(config.SKRYA_DATA_ROOT);
  return createS3Store({
    bucket: config.SKRYA_SINK_S3_BUCKET,
    prefix: config.SKRYA_SINK_S3_PREFIX.replace(/\/$/, ''),
    endpoint: config.SKRYA_SINK_S3_ENDPOINT,
    region: config.SKRYA_SINK_S3_REGION,
    forcePathStyle: config.SKRYA_SINK_S3_FORCE_PATH_STYLE === '' ? config.SKRYA_SINK_S3_ENDPOINT !== '' : config.SKRYA_SINK_S3_FORCE_PATH_STYLE === 'on',
  });
}
