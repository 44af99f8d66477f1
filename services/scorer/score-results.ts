/**
 * The scorer's steps for one provider response: normalize each result into a skrya.ingest.v1
 * item, validate it (spec 000), screen it for prompt injection, score it by intent (spec 001),
 * and decide its verdict. Pure: the same response always gives the same items, byte for byte.
 */
import { createHash } from 'node:crypto';
import type { Capability, ProviderResult } from '../../schemas/ingest.ts';
import type { RawResult, Reason, ScoreComponents, ScoredItem, Verdict } from '../../schemas/messages.ts';
import { screenItem, type ScreenResult } from '../../domain/screening/screen-item.ts';
import { canonicalUrl } from '../../domain/urls/canonical-url.ts';
import { RANKED_CAPABILITIES, VERDICT_FACTORS } from '../../domain/ranking/fusion.ts';
import { createItemScorer, hostOf, roundScore, type ItemScore } from '../../domain/ranking/score-item.ts';
import { validateItem } from './validation/validate-item.ts';

export { DOWNWEIGHT_FACTOR, QUARANTINE_FACTOR } from '../../domain/ranking/fusion.ts';

type ResponseMessage = Extract<RawResult, { kind: 'RESPONSE' }>;

const EVIDENCE_TYPES: Record<Capability, string> = {
  rss_feed: 'news',
  news_search: 'news',
  web_search: 'web',
  site_search: 'web',
  social_search: 'social',
  document_fetch: 'document',
  local_file: 'note',
};

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Stable across runs for the same text: what changed-item detection and dedupe compare. */
export function contentHash(title: string, body: string | null): string {
  return sha256(`${title.normalize('NFKC').trim()}\u0000${(body ?? '').normalize('NFKC').trim()}`).slice(0, 32);
}

/**
 * Deterministic item id: tenant, topic, canonical URL and content hash. Not the run id: the same
 * evidence keeps its id from run to run, so identical evidence gives identical files and an agent
 * can follow an item across runs. Within a run, copies with one URL and text share an id and merge.
 */
export function itemId(parts: { tenant: string; topicId: string; canonicalUrl: string | null; contentHash: string; position: number }): string {
  const identity = parts.canonicalUrl ?? `position:${parts.position}`;
  return `it-${sha256(`${parts.tenant}/${parts.topicId}/${identity}/${parts.contentHash}`).slice(0, 20)}`;
}

function toComponents(scored: ItemScore, factor: number): { score: number | null; components: ScoreComponents | null } {
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
    },
  };
}

function verdictOf(validation: ReturnType<typeof validateItem>['outcome'], screen: ScreenResult['verdict']): Verdict {
  if (validation === 'dropped' || screen === 'drop') return 'DROPPED';
  if (screen === 'quarantine') return 'QUARANTINED';
  if (validation === 'downweighted' || screen === 'downweight') return 'DOWNWEIGHTED';
  return 'ACCEPTED';
}

const FACTORS: Readonly<Record<Verdict, number>> = VERDICT_FACTORS;

export function scoreResults(message: ResponseMessage, results: readonly ProviderResult[]): ScoredItem[] {
  const { request, response, producer } = message;
  const scoreOf = createItemScorer({ intent: request.intent, subQueries: request.sub_queries.length > 0 ? request.sub_queries : request.queries, windowEnd: request.window_until, boostDomains: request.boost_domains });
  return results.map((result, position) => {
    const candidate = {
      title: result.title,
      url: result.url || null,
      source_name: result.source || hostOf(result.url || null),
      published_at: result.published_date,
      fetched_at: response.fetched_at,
      language: result.language,
      content: result.content,
      summary: result.snippet || null,
      evidence_type: EVIDENCE_TYPES[response.capability],
      confidence: null,
    };
    const validation = validateItem(candidate, { producerName: producer.name, fetchedAt: response.fetched_at, now: new Date(request.window_until) });
    const valid = validation.item;
    const title = valid?.title ?? result.title;
    const body = valid ? (valid.content ?? valid.summary) : (result.content ?? result.snippet);
    const url = valid ? valid.url : candidate.url;
    const canonical = url ? canonicalUrl(url) : null;
    const hash = contentHash(title, body);
    const id = itemId({ tenant: message.tenant, topicId: message.topic_id, canonicalUrl: canonical, contentHash: hash, position });
    const screen = screenItem({ id, title, content: valid?.content ?? result.content, summary: valid?.summary ?? (result.snippet || null), url, html: result.html });
    const verdict = verdictOf(validation.outcome, screen.verdict);
    // The scorer sets the id itself (itemId), so the validator's MISSING_ID would be on every item and explain nothing.
    const reasons: Reason[] = validation.reasons.filter(({ code }) => code !== 'MISSING_ID').map(({ code, field, message: text }) => ({ code, field, message: text }));
    if (screen.verdict !== 'accept') {
      reasons.push({ code: `INJECTION_${screen.verdict.toUpperCase()}`, field: 'content', message: `prompt-injection screening: ${screen.evidence.map((hit) => hit.rule).join(', ') || 'risk'} (risk ${screen.score.toFixed(2)})` });
    }
    // What reaches downstream: quarantined text only inside markers, with offending spans neutralized.
    const text = verdict === 'QUARANTINED' ? screen.sanitized : { title, content: valid?.content ?? result.content, summary: valid?.summary ?? (result.snippet || null) };
    const scored = verdict === 'DROPPED' ? { score: null, components: null } : toComponents(scoreOf({ url, title, snippet: result.snippet, summary: valid?.summary ?? null, content: valid?.content ?? null, published_at: valid?.published_at ?? null, providerRank: RANKED_CAPABILITIES.has(response.capability) ? position + 1 : null }), FACTORS[verdict]);
    return {
      id,
      title: text.title,
      url,
      source_name: valid?.source_name ?? candidate.source_name,
      published_at: valid?.published_at ?? null,
      fetched_at: valid?.fetched_at ?? response.fetched_at,
      language: valid?.language ?? result.language,
      content: text.content,
      summary: text.summary,
      evidence_type: candidate.evidence_type,
      confidence: valid?.confidence ?? null,
      canonical_url: canonical,
      content_hash: hash,
      producer_name: producer.name,
      capability: response.capability,
      position,
      response_sequence: response.sequence,
      counter_evidence: response.counter_evidence,
      sources: [{ provider: producer.name, url, item_id: id }],
      verdict,
      reasons,
      injection_score: roundScore(screen.score),
      evidence: screen.evidence.map((hit) => ({ rule: hit.rule, technique: hit.technique, field: hit.field, start: hit.span.start, end: hit.span.end, text: hit.text.slice(0, 500) })),
      score: scored.score,
      components: scored.components,
    };
  });
}
