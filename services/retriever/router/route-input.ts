/**
 * Spec 004's router input (the minimal set plus the optional fields), validated once at the
 * boundary. Everything after `parseRouteInput` trusts these types.
 */
import { z } from 'zod';
import { SkryaError } from '../../../runtime/errors.ts';

export const TASK_TYPES = ['breaking_news', 'deep_research', 'entity_analysis', 'internal_knowledge', 'tech_evaluation'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const GOAL_MODES = ['analyze', 'evaluate', 'compare', 'investigate'] as const;
export type GoalMode = (typeof GOAL_MODES)[number];

/** high = within 24 h, medium = within 30 days, low = any age (spec 004). */
export const ROUTE_FRESHNESS = ['high', 'medium', 'low'] as const;
export type RouteFreshness = (typeof ROUTE_FRESHNESS)[number];

/** The five source types of spec 004; the router never invents another. */
export const SOURCE_TYPES = ['web', 'local_file', 'vector', 'graph', 'counter'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * Search providers the fallback chain (rule 6) may name. Spec 004 names OpenClaw tools; ours map
 * onto them: tavily = tavily_search, bailian = bailian_web_search, brave = web_search (Brave API),
 * document_fetch = web_fetch_direct, local_cache = local_cache. exa is our extension: a hosted
 * search API that fails the way bailian does, so it sits on bailian's rung.
 */
export const SEARCH_PROVIDERS = ['tavily', 'bailian', 'exa', 'brave', 'document_fetch', 'local_cache'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];

/** Without a `providers` list the router assumes spec 004's full five-rung chain. */
export const DEFAULT_PROVIDERS: readonly SearchProvider[] = ['tavily', 'bailian', 'brave', 'document_fetch', 'local_cache'];

export const DEFAULT_BUDGET_LIMIT = 10;

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

/** Accepts `example.com`, `https://Example.com/` or `*.example.com` and keeps the bare host. */
function normalizeDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^\*\./, '')
    .replace(/[/?#].*$/, '');
}

/** A set given as a list: order and repeats carry no meaning, so both are normalized away. */
function asSortedSet<T extends string>(values: readonly T[], order: readonly T[]): T[] {
  return order.filter((value) => values.includes(value));
}

const nonEmptyText = z.string().trim().min(1);

export const routeInputSchema = z.strictObject({
  task_type: z.enum(TASK_TYPES),
  primary_subject: nonEmptyText,
  goal_mode: z.enum(GOAL_MODES),
  freshness_required: z.enum(ROUTE_FRESHNESS),
  available_sources: z
    .array(z.enum(SOURCE_TYPES))
    .transform((sources) => asSortedSet(sources, SOURCE_TYPES))
    .refine((sources) => sources.some((source) => source !== 'counter'), 'needs at least one source besides counter'),
  need_counter_evidence: z.boolean(),
  information_gaps: z.array(nonEmptyText).default([]),
  budget_limit: z.number().int().positive().default(DEFAULT_BUDGET_LIMIT),
  preferred_domains: z
    .array(z.string().transform(normalizeDomain).refine((domain) => HOSTNAME.test(domain), 'is not a domain name'))
    .default([]),
  /** Our extension for rule 3: the caller knows the subject has material in local_file/vector. */
  local_material: z.boolean().default(false),
  /** Our extension for rule 6: the search providers that exist at run time. */
  providers: z
    .array(z.enum(SEARCH_PROVIDERS))
    .default([...DEFAULT_PROVIDERS])
    .transform((providers) => asSortedSet(providers, SEARCH_PROVIDERS)),
});

export type RouteInput = z.infer<typeof routeInputSchema>;
/** What a caller may pass: optional fields may be left out. */
export type RouteInputDraft = z.input<typeof routeInputSchema>;

const list = (values: readonly string[]) => values.join(', ');

/** What each field accepts, quoted in every error so the fix is in the message. */
const FIELD_EXPECTATIONS: Record<keyof RouteInput, string> = {
  task_type: `one of ${list(TASK_TYPES)}`,
  primary_subject: 'a non-empty string (the core entity or object)',
  goal_mode: `one of ${list(GOAL_MODES)}`,
  freshness_required: `one of ${list(ROUTE_FRESHNESS)}`,
  available_sources: `an array of ${list(SOURCE_TYPES)} with at least one source besides counter`,
  need_counter_evidence: 'true or false',
  information_gaps: 'an array of non-empty strings',
  budget_limit: `a positive integer (default ${DEFAULT_BUDGET_LIMIT})`,
  preferred_domains: 'an array of domain names such as example.com',
  local_material: 'true or false (default false)',
  providers: `an array of ${list(SEARCH_PROVIDERS)} (default ${list(DEFAULT_PROVIDERS)})`,
};

const FIELDS = Object.keys(FIELD_EXPECTATIONS);

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let current = raw;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function pathLabel(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

export interface InputProblem {
  field: string;
  expected: string;
  text: string;
}

/** The start of a value as JSON; a value nested too deep to serialize (100 000 brackets) is named, not thrown. */
function preview(value: unknown): string {
  try {
    return String(JSON.stringify(value)?.slice(0, 80));
  } catch {
    return 'nested too deeply to show';
  }
}

function describeIssue(raw: unknown, issue: z.core.$ZodIssue): InputProblem {
  if (issue.code === 'unrecognized_keys') {
    const expected = `only the fields ${list(FIELDS)}`;
    return { field: issue.keys.join(', '), expected, text: `unknown field ${issue.keys.join(', ')}; allowed are ${expected}` };
  }
  const field = String(issue.path[0] ?? 'input');
  const expected = FIELD_EXPECTATIONS[field as keyof RouteInput] ?? 'a JSON object with the router input fields';
  const value = valueAt(raw, issue.path);
  const label = pathLabel(issue.path) || 'input';
  const shown = `is ${preview(value)}`;
  // An enum issue's own message repeats the allowed values that `expected` already lists.
  const problem = value === undefined ? 'is missing' : issue.code === 'invalid_value' ? shown : `${shown} (${issue.message})`;
  return { field, expected, text: `${label} ${problem}; expected ${expected}` };
}

/** Validates router input; throws INVALID_INPUT naming the field and what it accepts. */
export function parseRouteInput(raw: unknown): RouteInput {
  const parsed = routeInputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => describeIssue(raw, issue));
  throw new SkryaError('INVALID_INPUT', `invalid route input: ${problems.map((problem) => problem.text).join('; ')}`, {
    details: { problems: problems.map(({ field, expected }) => ({ field, expected })) },
  });
}
