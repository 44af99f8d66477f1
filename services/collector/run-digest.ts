import type { IngestBatch } from '../../schemas/messages.ts';
import { renderDigest } from './synthesis/render-digest.ts';

/** digest.md for one run (spec 001 phase 5), from the batch the collector assembled. */
export function renderRunDigest(batch: IngestBatch): string {
  return renderDigest({
    topicId: batch.topic_id,
    title: batch.request.queries[0] ?? batch.topic_id,
    items: batch.items.map((item) => ({
      title: item.title,
      url: item.url,
      summary: item.summary ?? item.content,
      sources: item.sources,
      score: item.score,
      published_at: item.published_at,
    })),
    stats: { retrieved: batch.stats.counts.raw_items, providers: [...new Set(batch.items.flatMap((item) => item.sources.map((source) => source.provider)))].sort() },
  });
}
