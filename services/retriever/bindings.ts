/**
 * Runtime bindings (spec 000): an operator binds a capability to an external command for one run
 * or session — never in sources.json. The retriever runs the command once per sub-query with the
 * request's fields as arguments: no shell, and no text taken from retrieved content. Its output is
 * treated as that tool's response and normalized by the scorer like any third-party output.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { CAPABILITIES, type Capability, type ProviderResult } from '../../schemas/ingest.ts';
import { normalizeThirdPartyOutput } from '../../domain/skills/third-party-output.ts';
import type { SkillRunResult } from '../../domain/skills/run-skill.ts';
import type { RawResponse } from '../../domain/skills/types.ts';

export const BINDING_PREFIX = 'binding:';
export const DEFAULT_BINDING_TIMEOUT_MS = 30_000;
export const DEFAULT_BINDING_MAX_OUTPUT_BYTES = 1024 * 1024;

/** The request fields a template may name; nothing else is ever substituted. */
export const TEMPLATE_FIELDS = ['query', 'since', 'until', 'languages', 'max_items', 'topic_id', 'capability'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

export interface Binding {
  capability: Capability;
  /** The command line split into words; placeholders like {query} stay inside single words. */
  argv: string[];
  /** producer.name in run artifacts: the tool's name. */
  producer: string;
  timeoutMs: number;
  maxOutputBytes: number;
}

const bindingFileSchema = z.partialRecord(
  z.enum(CAPABILITIES),
  z.object({
    command: z.string().min(1),
    producer: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i).optional(),
    timeout_ms: z.number().int().min(100).max(600_000).optional(),
    max_output_bytes: z.number().int().min(1).max(64 * 1024 * 1024).optional(),
  }),
);

/** Splits a command line into words like a shell would, quotes included, but runs no shell. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let inWord = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && index + 1 < line.length) current += line[++index];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char === '\\' && index + 1 < line.length ? line[++index] : char;
      inWord = true;
    }
  }
  if (quote) throw new SkryaError('INVALID_INPUT', `unclosed ${quote} quote in command template: ${line}`);
  if (inWord) words.push(current);
  return words;
}

function checkTemplate(argv: string[], source: string): void {
  if (argv.length === 0) throw new SkryaError('INVALID_INPUT', `${source}: the command template is empty`);
  for (const word of argv) {
    for (const [, field] of word.matchAll(/\{([^}]*)\}/g)) {
      if (!(TEMPLATE_FIELDS as readonly string[]).includes(field!)) {
        throw new SkryaError('INVALID_INPUT', `${source}: unknown placeholder {${field}}; use ${TEMPLATE_FIELDS.map((name) => `{${name}}`).join(', ')}`);
      }
    }
  }
}

function makeBinding(capability: Capability, command: string, options: { producer?: string | undefined; timeoutMs?: number | undefined; maxOutputBytes?: number | undefined }, source: string): Binding {
  const argv = splitCommandLine(command);
  checkTemplate(argv, source);
  return {
    capability,
    argv,
    producer: options.producer ?? path.basename(argv[0]!).replace(/\.[a-z]+$/i, '').toLowerCase().replace(/[^a-z0-9._-]/g, '-'),
    timeoutMs: options.timeoutMs ?? DEFAULT_BINDING_TIMEOUT_MS,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_BINDING_MAX_OUTPUT_BYTES,
  };
}

/** `--bind web_search='agent-reach search {query} --since {since}'`. */
export function parseBindFlag(flag: string): Binding {
  const separator = flag.indexOf('=');
  const capability = flag.slice(0, separator);
  if (separator <= 0 || !(CAPABILITIES as readonly string[]).includes(capability)) {
    throw new SkryaError('INVALID_INPUT', `--bind ${JSON.stringify(flag)}: write <capability>='<command template>' with a capability of ${CAPABILITIES.join(', ')}`);
  }
  return makeBinding(capability as Capability, flag.slice(separator + 1), {}, `--bind ${capability}`);
}

/** A bindings file: `{ "web_search": { "command": "…", "producer": "…", "timeout_ms": …, "max_output_bytes": … } }`. */
export function loadBindingsFile(file: string, topicTrees: readonly string[]): Binding[] {
  const resolved = path.resolve(file);
  for (const tree of topicTrees) {
    const root = path.resolve(tree);
    if (resolved === root || resolved.startsWith(root + path.sep)) {
      throw new SkryaError('INVALID_INPUT', `${file}: bindings must live outside the topic tree (${root}); long-term topic config records capabilities only`);
    }
  }
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(resolved, 'utf8'));
  } catch (error) {
    throw new SkryaError('INVALID_INPUT', `${file}: cannot be read as JSON (${(error as Error).message})`);
  }
  const parsed = bindingFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new SkryaError('INVALID_INPUT', `${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`).join('; ')}`);
  }
  return Object.entries(parsed.data).flatMap(([capability, entry]) => entry === undefined ? [] : [
    makeBinding(capability as Capability, entry.command, { producer: entry.producer, timeoutMs: entry.timeout_ms, maxOutputBytes: entry.max_output_bytes }, `${file}: ${capability}`),
  ]);
}

export interface BindingValues {
  query: string;
  since: string;
  until: string;
  languages: readonly string[];
  maxItems: number;
  topicId: string;
}

export function fillTemplate(binding: Binding, values: BindingValues): string[] {
  const fields: Record<TemplateField, string> = {
    query: values.query,
    since: values.since,
    until: values.until,
    languages: values.languages.join(','),
    max_items: String(values.maxItems),
    topic_id: values.topicId,
    capability: binding.capability,
  };
  return binding.argv.map((word) => word.replace(/\{([a-z_]+)\}/g, (_match, field: TemplateField) => fields[field]));
}

function failure(code: SkillRunResult['code'], message: string, started: number): SkillRunResult {
  return { status: 'error', code, message, raw: [], durationMs: performance.now() - started };
}

/** Runs one bound command; never throws for the tool's failures, which come back as codes. */
export function runBinding(binding: Binding, values: BindingValues, signal: AbortSignal, clock: () => Date = () => new Date()): Promise<SkillRunResult> {
  const started = performance.now();
  const [command, ...args] = fillTemplate(binding, values);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let timedOut = false;
    let stderr = '';
    const child = spawn(command!, args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, binding.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const room = binding.maxOutputBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2_000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(failure(signal.aborted ? 'ADAPTER_TIMEOUT' : 'NOT_CONFIGURED', `cannot be connected automatically: ${binding.argv[0]} could not be started (${error.message})`, started));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return resolve(failure('ADAPTER_TIMEOUT', `${binding.producer} did not finish within ${binding.timeoutMs} ms and was stopped`, started));
      if (!truncated && code !== 0) return resolve(failure('BAD_RESPONSE', `${binding.producer} exited with code ${code}: ${stderr.trim().slice(0, 500)}`, started));
      const body = Buffer.concat(chunks).toString('utf8');
      const raw: RawResponse = {
        skill: `${BINDING_PREFIX}${binding.capability}`,
        body,
        contentType: /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain',
        httpStatus: 0,
        url: null,
        fetchedAt: clock().toISOString(),
      };
      let results: ProviderResult[];
      try {
        results = normalizeThirdPartyOutput(raw);
      } catch {
        // Cut JSON no longer parses: keep the raw output for raw/, with nothing to rank.
        results = [];
      }
      resolve({
        status: 'ok',
        ...(truncated ? { message: `OUTPUT_TRUNCATED: output cut at ${binding.maxOutputBytes} bytes` } : {}),
        output: { results },
        raw: [raw],
        durationMs: performance.now() - started,
      });
    });
  });
}
