/**
 * A folder of local notes (Markdown, HTML, plain text) under the caller's allowed root. The raw
 * response is one JSON envelope with every note's text and modification time, so parsing it
 * later needs no disk access.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { ProviderResult } from '../../../../schemas/ingest.ts';
import type { LocalNotesEnvelope } from '../../adapters/local-files-transport.ts';
import { readableDocument } from '../../../text/readable-document.ts';
import { noteDate, noteHeading, splitFrontMatter } from '../../../text/note-meta.ts';
import { detectLanguage } from '../../../text/language.ts';
import { cleanText, snippetOf } from '../../../text/clean-text.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';
import { parseProviderJson } from '../provider-json.ts';

export const localFileInput = z.object({
  path: z.string().min(1).default('.'),
  count: z.number().int().min(1).max(500).default(50),
}).strict();

const envelopeSchema: z.ZodType<LocalNotesEnvelope> = z.object({
  root: z.string(),
  files: z.array(z.object({
    path: z.string(),
    mtime: z.string(),
    text: z.string(),
    committed: z.string().nullable().optional(),
    published: z.string().optional(),
    dated_by: z.enum(['front-matter', 'heading', 'file-name', 'git', 'mtime']).optional(),
  })),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
});

const SOURCE_NAME = 'local notes';

export { splitFrontMatter };

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

function noteToResult(file: LocalNotesEnvelope['files'][number], root: string): ProviderResult {
  const url = pathToFileURL(path.join(root, file.path)).toString();
  const extension = path.extname(file.path).toLowerCase();
  // Front matter, a date in the heading or file name, the last commit, the modification time.
  const published = noteDate({ path: file.path, text: file.text, committed: file.committed ?? null, mtime: file.mtime }).date;
  const heading = noteHeading(file.path, file.text);
  if (extension === '.html' || extension === '.htm') {
    const page = readableDocument(file.text);
    return {
      url,
      title: page.title || heading || fileTitle(file.path),
      snippet: page.excerpt || snippetOf(page.text),
      published_date: published,
      source: SOURCE_NAME,
      content: page.text || null,
      language: detectLanguage(page.text, page.declaredLanguage),
      html: file.text,
    };
  }
  if (extension === '.md' || extension === '.markdown') {
    const { fields, body } = splitFrontMatter(file.text);
    const text = cleanText(markdownText(body));
    return {
      url,
      title: cleanText(fields.title) || cleanText(heading) || fileTitle(file.path),
      snippet: snippetOf(fields.summary ?? fields.description ?? markdownText(body.replace(/^#\s+.+$/m, ''))),
      published_date: published,
      source: SOURCE_NAME,
      content: body.trim() || null,
      language: detectLanguage(text, fields.lang ?? fields.language ?? null),
    };
  }
  const text = file.text.trim();
  return {
    url,
    title: heading || fileTitle(file.path),
    snippet: snippetOf(text),
    published_date: published,
    source: SOURCE_NAME,
    content: text || null,
    language: detectLanguage(text),
  };
}

export function parseLocalNotesResponse(raw: RawResponse): ProviderResult[] {
  const envelope = parseProviderJson(raw, envelopeSchema);
  return envelope.files.map((file) => noteToResult(file, envelope.root));
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
