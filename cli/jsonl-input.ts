import fs from 'node:fs';
import { SkryaError } from '../runtime/errors.ts';

/**
 * A JSONL input read once, as a stream of byte chunks (cut into lines by lineBatches): a file,
 * stdin or a pipe alike. `skrya rank` renders what its output needs of a line as it reads it, so
 * it never reads a line twice and keeps no input bytes.
 */
export interface JsonlInput {
  /** How messages name the input: the file name, or "stdin". */
  label: string;
  /** Its size in bytes when known before it is read (a file, a text); null for a stream. */
  size: number | null;
  /** The input's bytes in order; a chunk's buffer may be filled again once the next chunk is asked for. */
  chunks(): AsyncIterable<Buffer>;
  close(): Promise<void>;
}

function cannotRead(label: string, error: unknown): SkryaError {
  return new SkryaError('INVALID_INPUT', `cannot read --jsonl ${label}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** A text already in memory (tests, callers that have one). */
export function textInput(text: string, label: string): JsonlInput {
  const bytes = Buffer.from(text);
  return {
    label,
    size: bytes.length,
    async *chunks() {
      yield bytes;
    },
    close: async () => {},
  };
}

/** A stream; read errors are INVALID_INPUT. */
export function streamInput(stream: AsyncIterable<Buffer>, label: string, close: () => Promise<void> = async () => {}): JsonlInput {
  return {
    label,
    size: null,
    async *chunks() {
      try {
        for await (const chunk of stream) yield chunk;
      } catch (error) {
        throw cannotRead(label, error);
      }
    },
    close,
  };
}

/** The input a `--jsonl` option names: a file, or stdin for "-". A file that cannot be opened or read is INVALID_INPUT. */
export async function openJsonlInput(file: string): Promise<JsonlInput> {
  if (file === '-') return streamInput(process.stdin, 'stdin');
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    throw cannotRead(file, error);
  }
  const close = () => handle.close();
  const stat = await handle.stat();
  // A pipe or a device has no byte positions: it is read from where it stands.
  if (!stat.isFile()) return streamInput(handle.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>, file, close);
  return { label: file, size: stat.size, chunks: () => fileChunks(handle, file), close };
}

/** Bytes a file is read in at a time: what a read stream reads. */
const FILE_CHUNK_BYTES = 64 * 1024;

/**
 * A file's bytes, each chunk read into the same buffer, synchronously. A read stream gave each read
 * a new buffer and did it on libuv's thread pool, whose thread woke for every 64 KB on cores
 * `skrya rank`'s reading threads keep busy: on the bench's 100k file its reads held the ranking
 * thread for about 200 ms of its profile, these about 1 ms. A whole run took a median 0.99× as
 * long (12 pairs by turns): most of those 200 ms were the thread waiting for a core. A read from
 * the page cache takes microseconds; one from a slow disk now waits on the thread that asked.
 */
async function* fileChunks(handle: fs.promises.FileHandle, label: string): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(FILE_CHUNK_BYTES);
  for (let position = 0; ;) {
    let bytesRead: number;
    try {
      bytesRead = fs.readSync(handle.fd, buffer, 0, buffer.length, position);
    } catch (error) {
      throw cannotRead(label, error);
    }
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** The whole text a `--jsonl` option names ("-" is stdin) and the label messages give it; unreadable input is INVALID_INPUT. */
export async function readJsonlText(file: string): Promise<{ text: string; label: string }> {
  const input = await openJsonlInput(file);
  try {
    const chunks: Buffer[] = [];
    // Copied: a file's chunks share one buffer.
    for await (const chunk of input.chunks()) chunks.push(Buffer.from(chunk));
    return { text: Buffer.concat(chunks).toString('utf8'), label: input.label };
  } finally {
    await input.close();
  }
}
