/**
 * A folder of local notes (Markdown, HTML, plain text) under the caller's allowed root. The raw
 * response is one JSON envelope with every note's text and modification time, so parsing it
 * later needs no disk access.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { ProviderResult } from '../../../../../schemas/ingest.ts';
import type { LocalNotesEnvelope } from '../../adapters/local-files-transport.ts';
import { normalizeDate } from '../../normalize/dates.ts';
import { readableDocument } from '../../normalize/html.ts';
import { detectLanguage } from '../../normalize/language.ts';
import { cleanText, snippetOf } from '../../normalize/text.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';
import { parseProviderJson } from '../provider-json.ts';

export const localFileInput = z.object({
  path: z.string().min(1).default('.'),
  count: z.number().int().min(1).max(500).default(50),
}).strict();

const envelopeSchema: z.ZodType<LocalNotesEnvelope> = z.object({
  root: z.string(),
  files: z.array(z.object({ path: z.string(), mtime: z.string(), text: z.string() })),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
});

const SOURCE_NAME = 'local notes';

interface FrontMatter {
  fields: Record<string, string>;
  body: string;
}

/** `---` delimited `key: value` lines at the top of a Markdown note (scalar values only). */
export function splitFrontMatter(text: string): FrontMatter {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (field?.[1] && field[2] !== undefined) fields[field[1].toLowerCase()] = field[2].trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: text.slice(match[0].length) };
}

/** Markdown as plain text, good enough for a snippet and language detection. */
function markdownText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+>]\s+/gm, '')
    .replace(/[*_`~]/g, '');
}

function fileTitle(file: string): string {
  return path.basename(file, path.extname(file)).replace(/[-_]+/g, ' ').trim();
}

function noteToResult(file: LocalNotesEnvelope['files'][number], root: string, fetchedAt: string): ProviderResult {
  const url = pathToFileURL(path.join(root, file.path)).toString();
  const extension = path.extname(file.path).toLowerCase();
  if (extension === '.html' || extension === '.htm') {
    const page = readableDocument(file.text);
    return {
      url,
      title: page.title || fileTitle(file.path),
      snippet: page.excerpt || snippetOf(page.text),
      published_date: normalizeDate(page.publishedTime, fetchedAt) ?? file.mtime,
      source: SOURCE_NAME,
      content: page.text || null,
      language: detectLanguage(page.text, page.declaredLanguage),
      html: file.text,
    };
  }
  if (extension === '.md' || extension === '.markdown') {
    const { fields, body } = splitFrontMatter(file.text);
    const heading = /^#\s+(.+)$/m.exec(body)?.[1];
    const text = cleanText(markdownText(body));
    return {
      url,
      title: cleanText(fields.title) || cleanText(heading) || fileTitle(file.path),
      snippet: snippetOf(fields.summary ?? fields.description ?? markdownText(body.replace(/^#\s+.+$/m, ''))),
      published_date: normalizeDate(fields.date ?? fields.published, fetchedAt) ?? file.mtime,
      source: SOURCE_NAME,
      content: body.trim() || null,
      language: detectLanguage(text, fields.lang ?? fields.language ?? null),
    };
  }
  const text = file.text.trim();
  return {
    url,
    title: fileTitle(file.path),
    snippet: snippetOf(text),
    published_date: file.mtime,
    source: SOURCE_NAME,
    content: text || null,
    language: detectLanguage(text),
  };
}

export function parseLocalNotesResponse(raw: RawResponse): ProviderResult[] {
  const envelope = parseProviderJson(raw, envelopeSchema);
  return envelope.files.map((file) => noteToResult(file, envelope.root, raw.fetchedAt));
}

export const localFileSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: localFileInput,
  output: skillOutputSchema,
  async execute(input, ctx) {
    const raw = await ctx.adapter.request({ kind: 'local-notes', path: input.path, maxFiles: input.count });
    return { output: { results: parseLocalNotesResponse(raw) }, raw: [raw] };
  },
  parseResponse: parseLocalNotesResponse,
});
