import type { IngestBatch } from '../../schemas/messages.ts';

/** digest.md for one run. */
export function renderRunDigest(batch: IngestBatch): string {
  const lines = [`# ${batch.topic_id}`, '', ...batch.items.map((item, index) => `${index + 1}. [${item.title}](${item.url ?? ''}) \`[${item.sources.map((source) => source.provider).join(', ')}]\`${item.score === null ? '' : ` ⭐${item.score.toFixed(2)}`}`)];
  return `${lines.join('\n')}\n`;
}
