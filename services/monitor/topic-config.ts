/**
 * A topic's config as an event: the validated sources.json, normalized, as the value published to
 * the compacted topic-configs topic, and back. The file tree (or `skrya topic apply`) is where
 * configs are edited; topic-configs is what monitors read.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { INTENTS } from '../../schemas/ingest.ts';
import type { TopicConfig } from '../../schemas/messages.ts';
import { expandTopicQueries } from './build-request.ts';
import { runtimeSourceSchema, type TopicSources } from './sources-file.ts';
import type { TenantId, TopicId } from '../../runtime/ids.ts';

/**
 * The normalized form inside `sources_json`. Its cron was checked by the publisher's lint; here
 * only the shape is checked (parsing 100,000 cron expressions again on every rebalance would cost
 * seconds), and a cron that still fails is reported when the topic is scheduled.
 */
const normalizedSourcesSchema = z.object({
  cadence: z.union([z.string().min(1), z.object({ every_minutes: z.number().int().min(1) })]).nullable(),
  recency_hours: z.number().positive(),
  intent: z.enum(INTENTS).nullable(),
  boost_domains: z.array(z.string()),
  sources: z.array(runtimeSourceSchema).min(1),
});

/**
 * A config's content as a monitor keeps it between runs: the normalized sources as published (not
 * parsed: parsed sources of 100,000 topics would hold most of the monitor's heap), the cadence the
 * schedule needs, and the query expansion for one UTC year. Topics with the same content hash share
 * one of these; the sources are parsed again when a topic fires (`sourcesOf`).
 */
export interface TopicContent {
  sha256: string;
  sourcesJson: string;
  cadence: TopicSources['cadence'];
  expansion: { intent: TopicSources['intent']; subQueries: string[]; year: number };
}

function normalized(topic: TopicSources): string {
  return JSON.stringify({ cadence: topic.cadence, recency_hours: topic.recencyHours, intent: topic.intent, boost_domains: topic.boostDomains, sources: topic.sources });
}

/** The content hash of a config: equal hashes mean republishing would change nothing for a monitor. */
export function configHash(topic: TopicSources): string {
  return createHash('sha256').update(normalized(topic)).digest('hex');
}

export function toTopicConfig(input: { tenant: TenantId; topicId: TopicId; topic: TopicSources; now: Date; lastRunUntil: string | null }): TopicConfig {
  const expansion = expandTopicQueries(input.topic, input.now);
  return {
    tenant: input.tenant,
    topic_id: input.topicId,
    sources_json: normalized(input.topic),
    content_sha256: configHash(input.topic),
    intent: expansion.intent,
    sub_queries: expansion.subQueries,
    expanded_for_year: input.now.getUTCFullYear(),
    last_run_until: input.lastRunUntil,
    published_at: input.now.toISOString(),
  };
}

function parseNormalized(config: Pick<TopicConfig, 'sources_json'>, key: string): z.infer<typeof normalizedSourcesSchema> {
  try {
    return normalizedSourcesSchema.parse(JSON.parse(config.sources_json));
  } catch (error) {
    throw new SkryaError('CONFIG_INVALID', `topic-configs ${key}: sources_json is not a normalized sources.json`, { cause: error });
  }
}

/** The content a monitor keeps for a config; throws CONFIG_INVALID when its sources_json is not a normalized sources.json. */
export function contentOf(config: TopicConfig): TopicContent {
  const parsed = parseNormalized(config, `${config.tenant}/${config.topic_id}`);
  return {
    sha256: config.content_sha256,
    sourcesJson: config.sources_json,
    cadence: parsed.cadence,
    expansion: { intent: config.intent, subQueries: config.sub_queries, year: config.expanded_for_year },
  };
}

/** The sources of a topic with this content, parsed (already validated once by `contentOf`). */
export function sourcesOf(content: Pick<TopicContent, 'sourcesJson'>, key: string): TopicSources {
  const parsed = parseNormalized({ sources_json: content.sourcesJson }, key);
  return {
    file: `topic-configs:${key}`,
    cadence: parsed.cadence,
    recencyHours: parsed.recency_hours,
    intent: parsed.intent,
    boostDomains: parsed.boost_domains,
    sources: parsed.sources,
  };
}
