/**
 * The collector's steps for one closed run: merge copies (canonical URL, then near-duplicate text),
 * fuse the providers' rank and agreement into the score (fusion.ts), rank, cut to max_items, count, and write the digest. Pure: the same
 * scored items always give the same batch, whatever order they arrived in.
 */
import { INGEST_VERSION, type IngestBatch, type Producer, type ProviderStatus, type RequestContext, type RunCounts, type ScoredItem } from '../../schemas/messages.ts';
import { RANKED_CAPABILITIES, fuseRun } from '../../domain/ranking/fusion.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import { agreementOf } from '../../domain/dedupe/agreement.ts';
import { dedupeItems, rankOrder } from '../../domain/dedupe/dedupe-items.ts';
import { renderRunDigest } from './run-digest.ts';
import type { RunId, TenantId, TopicId } from '../../runtime/ids.ts';

export interface ClosedRun {
  tenant: TenantId;
  topicId: TopicId;
  runId: RunId;
  request: RequestContext;
  producer: Producer;
  items: readonly ScoredItem[];
  /** From the run-end marker; null when the run closed on timeout. */
  marker: { counts: RunCounts; finishedAt: string; providerStatus: ProviderStatus[]; degradationLogJson: string; planJson: string | null } | null;
  incompleteReason: string | null;
}

/** Provider order for runs without an intent: response by response, result by result. */
function providerOrder(a: ScoredItem, b: ScoredItem): number {
  return a.response_sequence - b.response_sequence || a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function countVerdicts(items: readonly ScoredItem[]): Pick<RunCounts, 'accepted' | 'downweighted' | 'quarantined' | 'dropped'> {
  const counts = { accepted: 0, downweighted: 0, quarantined: 0, dropped: 0 };
  for (const item of items) counts[item.verdict.toLowerCase() as keyof typeof counts] += 1;
  return counts;
}

/** `model`'s verdict factors and fusion parameters fuse the run: the model the scorer scored it with. */
export function assembleBatch(run: ClosedRun, model: ScoringModel = DEFAULT_SCORING_MODEL): IngestBatch {
  // A redelivered message repeats its place in the run (response and position): keep one of each.
  // Two feeds carrying the same story are two places, so they merge below and are counted as such.
  const unique = [...new Map(run.items.map((item) => [`${item.response_sequence}/${item.position}`, item])).values()].sort(providerOrder);
  const kept = unique.filter((item) => item.verdict !== 'DROPPED');

  const clusters = dedupeItems(kept.map((item) => ({
    id: item.id,
    url: item.url,
    provider: item.producer_name,
    title: item.title,
    text: item.content ?? item.summary ?? '',
    score: item.score,
    contentHash: item.content_hash,
    canonicalUrl: item.canonical_url,
    item,
  })));
  const byId = new Map(kept.map((item) => [item.id, item]));
  const agreements = clusters.map((cluster) => agreementOf(cluster.sources));
  const fused = fuseRun(clusters.map((cluster, index) => {
    const { item } = cluster.item;
    const copies = [item, ...cluster.merged.map((copy) => byId.get(copy.id)!)];
    const weights = item.components === null ? null : { keyword: item.components.weight_keyword, freshness: item.components.weight_freshness, authority: item.components.weight_authority, rank: item.components.weight_rank, agreement: item.components.weight_agreement };
    return {
      contentScore: item.score,
      weights,
      verdictFactor: model.verdictFactors[item.verdict],
      places: copies.map((copy) => (RANKED_CAPABILITIES.has(copy.capability) ? { list: String(copy.response_sequence), rank: copy.position + 1 } : { list: null, rank: null })),
      independentSources: agreements[index]!.independentSources,
    };
  }), model.ranking.fusion);
  const merged = clusters.map((cluster, index) => {
    const agreement = agreements[index]!;
    const { item } = cluster.item;
    const { score, rank, agreement: agreementScore } = fused[index]!;
    const components = item.components === null ? null : { ...item.components, base: item.score ?? 0, rank, agreement: agreementScore, independent_sources: agreement.independentSources };
    return {
      ...item,
      canonical_url: cluster.canonicalUrl ?? item.canonical_url,
      sources: cluster.sources.map((source) => ({ provider: source.provider, url: source.url, item_id: source.id })),
      score,
      components,
    };
  });
  const ranked = rankOrder(merged.map((item) => ({ id: item.id, score: item.score, canonicalUrl: item.canonical_url, contentHash: item.content_hash }))).map((index) => merged[index]!);
  const items = ranked.slice(0, run.request.max_items);

  const counts: RunCounts = {
    raw_responses: run.marker?.counts.raw_responses ?? new Set(unique.map((item) => item.response_sequence)).size,
    raw_items: unique.length,
    ...countVerdicts(unique),
    normalize_failures: run.marker?.counts.normalize_failures ?? 0,
  };
  const retrievedAt = run.marker?.finishedAt ?? unique.map((item) => item.fetched_at).sort().at(-1) ?? run.request.requested_at;
  const batch: IngestBatch = {
    interface_version: INGEST_VERSION,
    tenant: run.tenant,
    topic_id: run.topicId,
    run_id: run.runId,
    retrieved_at: retrievedAt,
    producer: run.producer,
    request: run.request,
    items,
    cut: ranked.slice(run.request.max_items).map((item) => ({ id: item.id, title: item.title, url: item.url, canonical_url: item.canonical_url, content_hash: item.content_hash })),
    stats: {
      counts,
      merged_duplicates: kept.length - merged.length,
      cut_by_max_items: ranked.length - items.length,
      complete: run.marker !== null,
      incomplete_reason: run.incompleteReason,
      provider_status: run.marker?.providerStatus ?? [],
      degradation_log_json: run.marker?.degradationLogJson ?? '[]',
      plan_json: run.marker?.planJson ?? null,
    },
    digest_markdown: '',
    scoring_model: model.tag,
  };
  return { ...batch, digest_markdown: renderRunDigest(batch) };
}
