import fs from 'node:fs';
import { SkryaError } from '../runtime/errors.ts';

/**
 * A JSONL input streamed once, then read again line by line at the byte places the stream gave
 * (lineBatches): a command that must hold many lines until the end (`skrya rank` ranks 100k
 * results before printing any) keeps a line's place instead of its parsed text. A regular file is
 * read again from disk; stdin or a pipe cannot be read twice, so their bytes are kept, which is
 * still a fraction of what the parsed lines would hold.
 */
export interface RereadableInput {
  /** How messages name the input: the file name, or "stdin". */
  label: string;
  /** Its size in bytes when known before it is read (a file, a text); null for a stream. */
  size: number | null;
  chunks(): AsyncIterable<Buffer>;
  /** The text of the bytes at [offset, offset + length), as one line read by `chunks` had them. */
  read(offset: number, length: number): string;
  close(): Promise<void>;
}

function cannotRead(label: string, error: unknown): SkryaError {
  return new SkryaError('INVALID_INPUT', `cannot read --jsonl ${label}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** A text already in memory (tests, callers that have one). */
export function textInput(text: string, label: string): RereadableInput {
  const bytes = Buffer.from(text);
  return {
    label,
    size: bytes.length,
    async *chunks() {
      yield bytes;
    },
    read: (offset, length) => bytes.toString('utf8', offset, offset + length),
    close: async () => {},
  };
}

/** A stream that can be read only once: every chunk is kept for `read`. Read errors are INVALID_INPUT. */
export function streamInput(stream: AsyncIterable<Buffer>, label: string, close: () => Promise<void> = async () => {}): RereadableInput {
  const kept: Buffer[] = [];
  const starts: number[] = [];
  let size = 0;
  return {
    label,
    size: null,
    async *chunks() {
      try {
        for await (const chunk of stream) {
          kept.push(chunk);
          starts.push(size);
          size += chunk.length;
          yield chunk;
        }
      } catch (error) {
        throw cannotRead(label, error);
      }
    },
    read(offset, length) {
      // The last chunk starting at or before offset, then as many as the line runs across.
      let first = 0;
      for (let high = starts.length - 1; first < high;) {
        const middle = (first + high + 1) >> 1;
        if (starts[middle]! <= offset) first = middle;
        else high = middle - 1;
      }
      const parts: Buffer[] = [];
      let remaining = length;
      for (let index = first, from = offset - (starts[first] ?? 0); remaining > 0 && index < kept.length; index++, from = 0) {
        const part = kept[index]!.subarray(from, from + remaining);
        parts.push(part);
        remaining -= part.length;
      }
      return parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
    },
    close,
  };
}

/** The input a `--jsonl` option names: a file, or stdin for "-". A file that cannot be opened or read is INVALID_INPUT. */
export async function openJsonlInput(file: string): Promise<RereadableInput> {
  if (file === '-') return streamInput(process.stdin, 'stdin');
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    throw cannotRead(file, error);
  }
  const close = () => handle.close();
  const stat = await handle.stat();
  if (!stat.isFile()) return streamInput(handle.createReadStream({ autoClose: false }), file, close);
  let scratch = Buffer.alloc(64 * 1024);
  return {
    label: file,
    size: stat.size,
    async *chunks() {
      try {
        for await (const chunk of handle.createReadStream({ start: 0, autoClose: false })) yield chunk as Buffer;
      } catch (error) {
        throw cannotRead(file, error);
      }
    },
    read(offset, length) {
      if (scratch.length < length) scratch = Buffer.alloc(length);
      const bytesRead = fs.readSync(handle.fd, scratch, 0, length, offset);
      if (bytesRead !== length) throw new SkryaError('INVALID_INPUT', `--jsonl ${file} changed while it was read: line at byte ${offset} is no longer there`);
      return scratch.toString('utf8', 0, length);
    },
    close,
  };
}
