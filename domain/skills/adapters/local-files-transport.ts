/**
 * Reads local files for local_file and feeds-from-a-path. Every path is resolved (symlinks too)
 * and must stay inside the root the caller allowed; anything else is BLOCKED_URL. Bytes become text
 * through the one decoding step (BOM, XML declaration, <meta charset>, detection), never as
 * assumed UTF-8.
 */
import { execFile } from 'node:child_process';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SkryaError, describeError } from '../../../runtime/errors.ts';
import { decodeBytes } from '../../text/decode-bytes.ts';
import { noteDate, type NoteDateSource } from '../../text/note-meta.ts';
import type { AdapterRequest } from '../types.ts';
import type { CallContext, TransportResponse } from './transport.ts';

export const NOTE_EXTENSIONS = new Set(['.md', '.markdown', '.html', '.htm', '.txt']);
export const LOCAL_NOTES_CONTENT_TYPE = 'application/vnd.skrya.local-notes+json';

const MAX_DEPTH = 8;

/** The envelope local_file's raw response carries: the notes as read, so parsing needs nothing else. */
export interface LocalNotesEnvelope {
  root: string;
  files: Array<{
    path: string;
    mtime: string;
    text: string;
    /** Last commit touching the file, when the folder is in a git repository (absent in older envelopes). */
    committed?: string | null;
    /** The note's date and where it came from (normalize/note-meta.ts), recorded as read. */
    published?: string;
    dated_by?: NoteDateSource;
  }>;
  skipped: Array<{ path: string; reason: string }>;
}

export interface LocalFilesTransportOptions {
  maxFileBytes: number;
}

type LocalRequest = Extract<AdapterRequest, { kind: 'local-file' | 'local-notes' }>;

export function createLocalFilesTransport(options: LocalFilesTransportOptions) {
  return {
    async send(request: LocalRequest, call: CallContext): Promise<TransportResponse> {
      const { root, target } = await resolveInsideRoot(call.localRoot, request.path);
      const url = pathToFileURL(target).toString();
      if (request.kind === 'local-file') {
        const info = await stat(target);
        if (!info.isFile()) throw new SkryaError('INVALID_INPUT', `${request.path} is not a file`);
        if (info.size > options.maxFileBytes) throw tooLarge(request.path, options.maxFileBytes, info.size);
        const body = decodeBytes(await readFile(target)).text;
        return { status: 200, headers: {}, body, contentType: contentTypeOf(target), url };
      }
      const envelope = await readNotes(root, target, request.maxFiles, options.maxFileBytes);
      return { status: 200, headers: {}, body: JSON.stringify(envelope), contentType: LOCAL_NOTES_CONTENT_TYPE, url };
    },
  };
}

/** Resolves `requested` against the root and proves the real path (after symlinks) stays inside it. */
export async function resolveInsideRoot(localRoot: string | null, requested: string): Promise<{ root: string; target: string }> {
  if (localRoot === null) throw new SkryaError('BLOCKED_URL', 'no local root is allowed for this call', { details: { reason: 'no-root' } });
  const root = await realpath(path.resolve(localRoot)).catch((error: unknown) => {
    throw new SkryaError('NOT_CONFIGURED', `local root ${localRoot} is not readable (${describeError(error)})`, { cause: error });
  });
  const lexical = path.resolve(root, requested);
  if (!isInside(root, lexical)) throw outside(requested, root);
  const target = await realpath(lexical).catch((error: unknown) => {
    throw new SkryaError('INVALID_INPUT', `${requested} does not exist under the local root (${describeError(error)})`, { cause: error });
  });
  if (!isInside(root, target)) throw outside(requested, root);
  return { root, target };
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

function outside(requested: string, root: string): SkryaError {
  return new SkryaError('BLOCKED_URL', `${requested} is outside the allowed local root`, { details: { reason: 'outside-root', requested, root } });
}

function tooLarge(file: string, maxBytes: number, size: number): SkryaError {
  return new SkryaError('BAD_RESPONSE', `${file} is larger than ${maxBytes} bytes`, { details: { reason: 'oversize', maxBytes, size } });
}

async function readNotes(root: string, target: string, maxFiles: number, maxFileBytes: number): Promise<LocalNotesEnvelope> {
  const found: Array<{ file: string; mtimeMs: number; size: number }> = [];
  const skipped: LocalNotesEnvelope['skipped'] = [];
  const visit = async (file: string, depth: number): Promise<void> => {
    const info = await stat(file);
    if (info.isDirectory()) {
      if (depth >= MAX_DEPTH) return;
      for (const entry of await readdir(file)) {
        if (entry.startsWith('.') || entry === 'node_modules') continue;
        await visit(path.join(file, entry), depth + 1);
      }
      return;
    }
    if (!info.isFile() || !NOTE_EXTENSIONS.has(path.extname(file).toLowerCase())) return;
    const real = await realpath(file);
    if (!isInside(root, real)) {
      skipped.push({ path: path.relative(root, file), reason: 'links outside the local root' });
      return;
    }
    found.push({ file: real, mtimeMs: info.mtimeMs, size: info.size });
  };
  await visit(target, 0);
  found.sort((a, b) => b.mtimeMs - a.mtimeMs || a.file.localeCompare(b.file));
  const files: LocalNotesEnvelope['files'] = [];
  for (const note of found.slice(0, maxFiles)) {
    const relative = path.relative(root, note.file);
    if (note.size > maxFileBytes) {
      skipped.push({ path: relative, reason: `larger than ${maxFileBytes} bytes` });
      continue;
    }
    let text: string;
    try {
      text = decodeBytes(await readFile(note.file)).text;
    } catch (error) {
      skipped.push({ path: relative, reason: `unreadable text (${describeError(error)})` });
      continue;
    }
    const mtime = new Date(note.mtimeMs).toISOString();
    const committed = await lastCommitTime(note.file);
    const dated = noteDate({ path: relative, text, committed, mtime });
    files.push({ path: relative, mtime, text, committed, published: dated.date, dated_by: dated.source });
  }
  return { root, files, skipped };
}

const GIT_TIMEOUT_MS = 5_000;

/**
 * When the file was last committed, if its folder is in a git repository: `git log` run without a
 * shell, in the file's folder, with the file name as a literal path. Null when git is missing, the
 * folder is in no repository, or the file was never committed.
 */
function lastCommitTime(file: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['--literal-pathspecs', 'log', '-1', '--format=%cI', '--', path.basename(file)],
      { cwd: path.dirname(file), timeout: GIT_TIMEOUT_MS, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout) => {
        const time = error ? '' : stdout.trim();
        const parsed = Date.parse(time);
        resolve(time && !Number.isNaN(parsed) ? new Date(parsed).toISOString() : null);
      },
    );
  });
}

function contentTypeOf(file: string): string {
  switch (path.extname(file).toLowerCase()) {
    case '.json':
      return 'application/feed+json';
    case '.xml':
    case '.rss':
    case '.atom':
      return 'application/xml';
    case '.html':
    case '.htm':
      return 'text/html; charset=utf-8';
    case '.md':
    case '.markdown':
      return 'text/markdown; charset=utf-8';
    default:
      return 'text/plain; charset=utf-8';
  }
}
