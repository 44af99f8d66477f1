/**
 * Step 5, verdict: validation and screening decide ACCEPTED, DOWNWEIGHTED, QUARANTINED or DROPPED;
 * the verdict's factor (from the scoring model) scales the score; quarantined text goes on only
 * inside markers with the offending spans neutralized; the item records every reason, the
 * injection evidence, each score component and the model that produced them.
 */
import type { ScoreComponents, ScoredItem, Verdict } from '../../../schemas/messages.ts';
import type { ScreenResult } from '../../../domain/screening/screen-item.ts';
import { roundScore, type ItemScore } from '../../../domain/ranking/score-item.ts';
import type { ValidationOutcome } from '../../../domain/validation/validate-item.ts';
import type { ResponseMessage } from './normalize.ts';
import type { Scored } from './score.ts';

export function verdictOf(validation: ValidationOutcome, screen: ScreenResult['verdict']): Verdict {
  if (validation === 'dropped' || screen === 'drop') return 'DROPPED';
  if (screen === 'quarantine') return 'QUARANTINED';
  if (validation === 'downweighted' || screen === 'downweight') return 'DOWNWEIGHTED';
  return 'ACCEPTED';
}

function toComponents(scored: ItemScore, factor: number, model: string): { score: number | null; components: ScoreComponents | null } {
  if (scored.score === null || scored.components === null) return { score: null, components: null };
  const score = roundScore(scored.score * factor);
  const { components } = scored;
  return {
    score,
    components: {
      keyword: components.keyword,
      freshness: components.freshness,
      authority: components.authority,
      rank: components.rank,
      authority_tier: components.authorityTier,
      authority_rule: components.authorityRule,
      authority_version: components.authorityVersion,
      boosted: components.boosted,
      base: score,
      agreement: 0,
      independent_sources: 1,
      weight_keyword: components.weights.keyword,
      weight_freshness: components.weights.freshness,
      weight_authority: components.weights.authority,
      weight_rank: components.weights.rank,
      weight_agreement: components.weights.agreement,
      freshness_basis: components.freshnessBasis,
      freshness_date: components.freshnessDate,
      model,
    },
  };
}

export function createVerdictStep(model: { tag: string; verdictFactors: Readonly<Record<Verdict, number>> }): (message: ResponseMessage, item: Scored) => ScoredItem {
  return (message, item) => {
    const { response, producer } = message;
    const { screen, validation, result, fields } = item;
    const valid = validation.item;
    const verdict = verdictOf(validation.outcome, screen.verdict);
    const reasons = [...item.reasons];
    if (screen.verdict !== 'accept') {
      reasons.push({ code: `INJECTION_${screen.verdict.toUpperCase()}`, field: 'content', message: `prompt-injection screening: ${screen.evidence.map((hit) => hit.rule).join(', ') || 'risk'} (risk ${screen.score.toFixed(2)})` });
    }
    // What reaches downstream: quarantined text only inside markers, with offending spans neutralized.
    const text = verdict === 'QUARANTINED' ? screen.sanitized : item.text;
    const scored = verdict === 'DROPPED' ? { score: null, components: null } : toComponents(item.relevance, model.verdictFactors[verdict], model.tag);
    return {
      id: item.id,
      title: text.title,
      url: item.url,
      source_name: valid?.source_name ?? fields.source_name,
      published_at: valid?.published_at ?? null,
      fetched_at: valid?.fetched_at ?? response.fetched_at,
      language: valid?.language ?? result.language,
      content: text.content,
      summary: text.summary,
      evidence_type: fields.evidence_type,
      confidence: valid?.confidence ?? null,
      canonical_url: item.canonicalUrl,
      content_hash: item.contentHash,
      producer_name: producer.name,
      capability: response.capability,
      position: item.position,
      response_sequence: response.sequence,
      counter_evidence: response.counter_evidence,
      sources: [{ provider: producer.name, url: item.url, item_id: item.id }],
      verdict,
      reasons,
      injection_score: roundScore(screen.score),
      evidence: screen.evidence.map((hit) => ({ rule: hit.rule, technique: hit.technique, field: hit.field, start: hit.span.start, end: hit.span.end, text: hit.text.slice(0, 500) })),
      score: scored.score,
      components: scored.components,
    };
  };
}
