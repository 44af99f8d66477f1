/**
 * The router's only product (spec 004's fixed output structure): where to search, in what order,
 * whether to look for counter-evidence, when to stop, how many searches each source may spend,
 * and which provider to fall back to. The retriever reads it back through `routePlanSchema`.
 */
import { z } from 'zod';
import { SEARCH_PROVIDERS, SOURCE_TYPES, TASK_TYPES } from './route-input.ts';

/** Failures that move the web search one rung down the fallback chain (rule 6). */
export const FALLBACK_TRIGGERS = ['quota_exhausted', 'timeout_30s', 'empty_results', 'api_error', 'gfw_blocked'] as const;
export type FallbackTrigger = (typeof FALLBACK_TRIGGERS)[number];

export const TASK_ID_PATTERN = /^SR-[0-9a-f]{8}$/;

const sourceType = z.enum(SOURCE_TYPES);
const provider = z.enum(SEARCH_PROVIDERS);

export const selectedSourceSchema = z.strictObject({
  source: sourceType,
  priority: z.number().int().positive(),
  rationale: z.string().min(1),
  search_hints: z.array(z.string().min(1)),
});
export type SelectedSource = z.infer<typeof selectedSourceSchema>;

export const fallbackStepSchema = z.strictObject({
  level: z.number().int().positive(),
  source: provider,
  /** Spec 004 writes the triggers as one string joined with " | "; null = any failure. */
  trigger_fallback: z.string().nullable(),
  fallback_to: z.number().int().positive().nullable(),
});
export type FallbackStep = z.infer<typeof fallbackStepSchema>;

export const degradationEventSchema = z.strictObject({
  from: provider,
  to: provider.nullable(),
  trigger: z.enum(FALLBACK_TRIGGERS),
  at: z.iso.datetime({ offset: true }),
  detail: z.string().nullable(),
});
export type DegradationEvent = z.infer<typeof degradationEventSchema>;

const searchCount = z.number().int().positive();

/** `total_budget` plus one count per selected source; the counts sum exactly to it. */
export const budgetAllocationSchema = z.strictObject({
  total_budget: searchCount,
  web: searchCount.optional(),
  local_file: searchCount.optional(),
  vector: searchCount.optional(),
  graph: searchCount.optional(),
  counter: searchCount.optional(),
});
export type BudgetAllocation = z.infer<typeof budgetAllocationSchema>;

export const routePlanSchema = z.strictObject({
  task_id: z.string().regex(TASK_ID_PATTERN),
  task_type: z.enum(TASK_TYPES),
  primary_subject: z.string().min(1),
  selected_sources: z.array(selectedSourceSchema).min(1),
  search_order: z.array(sourceType).min(1),
  counter_search_enabled: z.boolean(),
  counter_trigger: z.string().nullable(),
  stop_rule: z.strictObject({ condition: z.string().min(1), max_rounds: z.number().int().positive() }),
  budget_allocation: budgetAllocationSchema,
  fallback_chain: z.array(fallbackStepSchema),
  degradation_log: z.array(degradationEventSchema),
});
export type RoutePlan = z.infer<typeof routePlanSchema>;
