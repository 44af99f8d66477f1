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
  const stream = handle.createReadStream(stat.isFile() ? { start: 0, autoClose: false } : { autoClose: false }) as AsyncIterable<Buffer>;
  return { ...streamInput(stream, file, close), size: stat.isFile() ? stat.size : null };
}

/** The whole text a `--jsonl` option names ("-" is stdin) and the label messages give it; unreadable input is INVALID_INPUT. */
export async function readJsonlText(file: string): Promise<{ text: string; label: string }> {
  const input = await openJsonlInput(file);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of input.chunks()) chunks.push(chunk);
    return { text: Buffer.concat(chunks).toString('utf8'), label: input.label };
  } finally {
    await input.close();
  }
}
