import { z } from 'zod';
import { TIER_NUMBERS } from './authority.ts';

/** The shape of an authority tiers file (authority.ts reads it), checked where a file comes from outside: a scoring model's definition. */
const tierRulesSchema = z.object({
  hosts: z.array(z.string()).default([]),
  suffixes: z.array(z.string()).default([]),
  patterns: z.array(z.string()).default([]),
});

export const authorityTiersSchema = z.object({
  version: z.string().min(1),
  description: z.string().optional(),
  tierScores: z.object({ '1': z.number().min(0).max(1), '2': z.number().min(0).max(1), '3': z.number().min(0).max(1), '4': z.number().min(0).max(1) }),
  defaultTier: z.number().int().min(1).max(4),
  tiers: z.partialRecord(z.enum(TIER_NUMBERS), tierRulesSchema),
});
export type AuthorityTiersFile = z.infer<typeof authorityTiersSchema>;
