/**
 * The scoring model: every number and rule the scorer and the collector's ranking read, as one
 * versioned value. A definition is plain data (JSON in a file, structured-cloned into scoring
 * worker threads); compileScoringModel turns it into what the formulas take (an authority index,
 * the screening combine function). Every scored item records the model's tag (`id@version`) in its
 * score components, so a file says which model ranked it.
 */
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { INTENTS, type Intent } from '../../schemas/ingest.ts';
import { VERDICTS, type Verdict } from '../../schemas/messages.ts';
import { buildAuthorityIndex } from '../ranking/authority.ts';
import { authorityTiersSchema } from '../ranking/authority-schema.ts';
import { createBoostMatcher } from '../ranking/domain-boost.ts';
import { contentWeight } from '../ranking/intent-weights.ts';
import type { RankingModel } from '../ranking/ranking-model.ts';
import { COMBINE_STRATEGIES, type CombineStrategy, type ScoringModel as ScreeningModel } from '../screening/scoring-model.ts';

const unit = z.number().min(0).max(1);
const positive = z.number().positive();

/** One entry for each of the seven intents, no more, no fewer. */
function perIntent<T extends z.ZodType>(value: T) {
  return z.strictObject(Object.fromEntries(INTENTS.map((intent) => [intent, value])) as Record<Intent, T>);
}

const weightsSchema = z
  .strictObject({ keyword: unit, freshness: unit, authority: unit, rank: unit, agreement: unit })
  .refine((row) => Math.abs(row.keyword + row.freshness + row.authority + row.rank + row.agreement - 1) < 1e-9, { message: 'the five weights must sum to 1' })
  .refine((row) => contentWeight(row) > 0, { message: 'keyword + freshness + authority must be above 0 (the content score is divided by it)' });

const COMBINE_NAMES = Object.keys(COMBINE_STRATEGIES) as [CombineStrategy, ...CombineStrategy[]];

export const scoringModelSchema = z.strictObject({
  /** Names the model in every item it scores: lower-case letters, digits and dashes. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'an id is lower-case letters, digits and dashes, starting with a letter or digit'),
  version: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'a version is letters, digits, dots, dashes and underscores'),
  description: z.string().optional(),
  ranking: z.strictObject({
    weights: perIntent(weightsSchema),
    freshness: z.strictObject({
      curves: perIntent(z.strictObject({ midpointDays: positive, steepness: positive })),
      undated: perIntent(unit),
      staleIntents: z.array(z.enum(INTENTS)),
      staleFreshness: z.number().gt(0).max(1),
      staleAuthorityFloor: unit,
    }),
    boost: z.strictObject({ amount: unit, domains: perIntent(z.array(z.string())) }),
    fusion: z.strictObject({ rrfK: z.number().min(0), rankNeutral: unit, agreementSaturation: positive }),
    authority: authorityTiersSchema,
  }),
  /** What a verdict multiplies the score by: a downweighted item keeps its place in the data but ranks lower. */
  verdictFactors: z.strictObject(Object.fromEntries(VERDICTS.map((verdict) => [verdict, unit])) as Record<Verdict, typeof unit>),
  screening: z.strictObject({
    thresholds: z
      .strictObject({ downweight: unit, quarantine: unit, drop: unit })
      .refine((t) => t.downweight <= t.quarantine && t.quarantine <= t.drop, { message: 'thresholds must rise: downweight ≤ quarantine ≤ drop' }),
    /** Whether the learned injection model's risk is combined with the rules' (else rules only). */
    learnedModel: z.boolean(),
    combine: z.enum(COMBINE_NAMES),
  }),
});

export type ScoringModelDefinition = z.infer<typeof scoringModelSchema>;

export interface ScoringModel {
  /** `id@version`: what every item's score components record. */
  readonly tag: string;
  /** The plain data the model was compiled from (what a scoring worker thread receives). */
  readonly definition: ScoringModelDefinition;
  readonly ranking: RankingModel;
  readonly screening: ScreeningModel;
  readonly verdictFactors: Readonly<Record<Verdict, number>>;
}

/**
 * A checked definition → the model the formulas take. Beyond the schema it lints the authority
 * tiers and the boost domains, so a bad model fails here, at start-up, not on the first item.
 */
export function compileScoringModel(definition: ScoringModelDefinition, source = `scoring model ${definition.id}@${definition.version}`): ScoringModel {
  const { ranking, screening } = definition;
  for (const intent of INTENTS) {
    try {
      createBoostMatcher(ranking.boost.domains[intent]);
    } catch (error) {
      throw new SkryaError('CONFIG_INVALID', `${source}: ranking.boost.domains.${intent}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  let authority;
  try {
    authority = buildAuthorityIndex(ranking.authority);
  } catch (error) {
    throw new SkryaError('CONFIG_INVALID', `${source}: ranking.authority: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return {
    tag: `${definition.id}@${definition.version}`,
    definition,
    ranking: { ...ranking, authority },
    screening: { thresholds: screening.thresholds, useModel: screening.learnedModel, combine: COMBINE_STRATEGIES[screening.combine] },
    verdictFactors: definition.verdictFactors,
  };
}
