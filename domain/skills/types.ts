/**
 * The skill contract (spec 002): a declaration, a zod contract, an executor that talks to the
 * outside world only through its adapter, and a pure parser the scorer can re-run on raw responses.
 */
import type { z } from 'zod';
import type { Logger } from '../../runtime/logger.ts';
import type { ProviderResult } from '../../schemas/ingest.ts';
import type { SkillOutput } from './output-schema.ts';

/** A provider response kept verbatim, so replays re-normalize without re-fetching. */
export interface RawResponse {
  skill: string;
  body: string;
  contentType: string;
  httpStatus: number;
  url: string | null;
  fetchedAt: string;
}

export interface Clock {
  now(): Date;
}

export type AdapterMode = 'live' | 'mock';

/** What an executor may ask of its adapter; the adapter decides how (real IO or a recording). */
export type AdapterRequest =
  /** A call to the skill's configured provider API (base URL and credentials come from the declaration). */
  | { kind: 'api'; method: 'GET' | 'POST'; path: string; query?: Record<string, string>; json?: unknown }
  /** A public URL named by a user or a feed: goes through the SSRF guard and robots.txt. */
  | { kind: 'public-url'; url: string; accept: string }
  /** One file inside the caller's allowed local root. */
  | { kind: 'local-file'; path: string }
  /** The notes of a folder (or one note) inside the caller's allowed local root, as one JSON envelope. */
  | { kind: 'local-notes'; path: string; maxFiles: number };

/** The adapter as an executor sees it: already bound to one skill call. */
export interface SkillAdapter {
  readonly mode: AdapterMode;
  request(request: AdapterRequest): Promise<RawResponse>;
}

export interface SkillContext {
  adapter: SkillAdapter;
  signal: AbortSignal;
  logger: Logger;
  tenant: string;
  runId: string;
  clock: Clock;
}

export interface SkillExecution {
  output: SkillOutput;
  raw: RawResponse[];
  /** What the skill changed to fit the provider (a query cut, a language left out): reported with the call. */
  notes?: string[];
}

/** A skill as the registry holds it: types erased, the input re-validated at the edge. */
export interface SkillDefinition {
  /** The declaration file (JSON); the registry loads and checks it. */
  declarationUrl: URL;
  /** Recorded provider responses the mock adapter replays (recordings.json + body files). */
  fixturesDir: URL;
  input: z.ZodType;
  output: z.ZodType<SkillOutput>;
  execute(input: unknown, ctx: SkillContext): Promise<SkillExecution>;
  /** Pure: depends only on the raw response. */
  parseResponse(raw: RawResponse): ProviderResult[];
}

/** The typed form a provider module writes; `defineSkill` erases it for the registry. */
export interface TypedSkill<S extends z.ZodType> {
  declarationUrl: URL;
  fixturesDir: URL;
  input: S;
  output: z.ZodType<SkillOutput>;
  execute(input: z.output<S>, ctx: SkillContext): Promise<SkillExecution>;
  parseResponse(raw: RawResponse): ProviderResult[];
}

export function defineSkill<S extends z.ZodType>(skill: TypedSkill<S>): SkillDefinition {
  return {
    ...skill,
    execute: (input, ctx) => skill.execute(skill.input.parse(input), ctx),
  };
}
