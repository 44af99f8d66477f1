/**
 * The topic plan: how many partitions each topic has, how many replicas, and how many of them must
 * acknowledge a write (min.insync.replicas), from the table plus the operator's settings; and, given
 * what a cluster already holds, what would be created or changed. A topic is never deleted or
 * recreated: what cannot be changed in place (fewer partitions, another replication factor) is
 * reported with what to do instead.
 */
import type { SkryaConfig } from '../runtime/config.ts';
import { SkryaError } from '../runtime/errors.ts';
import { TOPICS, TOPIC_NAMES, physicalTopic, type TopicName, type TopicNaming } from './topics.ts';

export interface TopicLayout {
  replicationFactor: number;
  minInsyncReplicas: number;
  partitions: Record<TopicName, number>;
}

const PROFILES = {
  // One broker: nothing else could hold a replica.
  local: { replicationFactor: 1, minInsyncReplicas: 1 },
  // Three copies, two of which must have a write before it is acknowledged: any one broker can be
  // lost (or restarted) without losing an acknowledged message and without refusing writes.
  cluster: { replicationFactor: 3, minInsyncReplicas: 2 },
} as const;

/**
 * Topics whose partition count is part of their meaning: topic configs and monitor state are the
 * monitors' shards, one partition number for a topic's config and its state; another count on
 * either would move keys to other shards and let an older state win.
 */
const FIXED_PARTITIONS: ReadonlySet<TopicName> = new Set(['monitor-state', 'topic-configs']);

const MAX_PARTITIONS = 1024;

/** The layout the settings ask for; throws CONFIG_INVALID naming every problem. */
export function topicLayout(config: Pick<SkryaConfig, 'SKRYA_TOPIC_PROFILE' | 'SKRYA_TOPIC_REPLICATION_FACTOR' | 'SKRYA_TOPIC_MIN_INSYNC_REPLICAS' | 'SKRYA_TOPIC_PARTITIONS'>): TopicLayout {
  const problems: string[] = [];
  const profile = PROFILES[config.SKRYA_TOPIC_PROFILE];
  const replicationFactor = config.SKRYA_TOPIC_REPLICATION_FACTOR || profile.replicationFactor;
  const minInsyncReplicas = config.SKRYA_TOPIC_MIN_INSYNC_REPLICAS || Math.min(profile.minInsyncReplicas, replicationFactor);
  if (minInsyncReplicas > replicationFactor) {
    problems.push(`SKRYA_TOPIC_MIN_INSYNC_REPLICAS=${minInsyncReplicas} exceeds the replication factor ${replicationFactor}: every write would be refused`);
  }
  const partitions = Object.fromEntries(TOPIC_NAMES.map((name) => [name, TOPICS[name].partitions as number])) as Record<TopicName, number>;
  for (const entry of config.SKRYA_TOPIC_PARTITIONS.split(',').map((part) => part.trim()).filter(Boolean)) {
    const match = /^([a-z-]+)=(\d+)$/.exec(entry);
    const name = match?.[1] as TopicName | undefined;
    const count = Number(match?.[2]);
    if (!match || !name || !(name in TOPICS)) {
      problems.push(`SKRYA_TOPIC_PARTITIONS: '${entry}' is not <topic>=<partitions> with a topic of the table (${TOPIC_NAMES.join(', ')})`);
    } else if (!Number.isInteger(count) || count < 1 || count > MAX_PARTITIONS) {
      problems.push(`SKRYA_TOPIC_PARTITIONS: ${name} needs 1 to ${MAX_PARTITIONS} partitions, not ${match[2]}`);
    } else if (FIXED_PARTITIONS.has(name) && count !== TOPICS[name].partitions) {
      problems.push(`SKRYA_TOPIC_PARTITIONS: ${name} always has ${TOPICS[name].partitions} partition(s): they are the monitors' shards, shared with ${name === 'monitor-state' ? 'topic-configs' : 'monitor-state'}`);
    } else {
      partitions[name] = count;
    }
  }
  if (problems.length > 0) throw new SkryaError('CONFIG_INVALID', `invalid topic settings:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  return { replicationFactor, minInsyncReplicas, partitions };
}

/** The topic configs a topic is created with, and kept at: the table's plus min.insync.replicas. */
export function desiredTopicConfig(layout: TopicLayout, name: TopicName): Record<string, string> {
  return { ...TOPICS[name].config, 'min.insync.replicas': String(layout.minInsyncReplicas) };
}

/** A topic as the cluster holds it. */
export interface ExistingTopic {
  partitions: number;
  replicationFactor: number;
  /** Configs set on the topic itself (not the broker's defaults). */
  config: Record<string, string>;
}

export type TopicPlanStep =
  | { action: 'create'; name: TopicName; topic: string; partitions: number; replicationFactor: number; config: Record<string, string> }
  | { action: 'keep'; name: TopicName; topic: string }
  /** Kafka can only add partitions; keyed messages then move (see README "Running on a cluster"). */
  | { action: 'add-partitions'; name: TopicName; topic: string; from: number; to: number }
  /** `config` is the topic's whole topic-level config after the change (its other configs kept). */
  | { action: 'alter-config'; name: TopicName; topic: string; changes: Array<{ config: string; from: string | null; to: string }>; config: Record<string, string> }
  /** Differences that are not changed in place: what the cluster has stays, with what to do about it. */
  | { action: 'cannot'; name: TopicName; topic: string; reason: string };

/**
 * What to do so that the cluster matches the layout. A topic can need several steps (more partitions
 * and a config change); a topic that matches gets one `keep`.
 */
export function planTopics(layout: TopicLayout, naming: TopicNaming, existing: ReadonlyMap<string, ExistingTopic>, names: readonly TopicName[] = TOPIC_NAMES): TopicPlanStep[] {
  const steps: TopicPlanStep[] = [];
  for (const name of names) {
    const topic = physicalTopic(naming, name);
    const desiredConfig = desiredTopicConfig(layout, name);
    const partitions = layout.partitions[name];
    const current = existing.get(topic);
    if (!current) {
      steps.push({ action: 'create', name, topic, partitions, replicationFactor: layout.replicationFactor, config: desiredConfig });
      continue;
    }
    const before = steps.length;
    if (current.partitions < partitions) steps.push({ action: 'add-partitions', name, topic, from: current.partitions, to: partitions });
    if (current.partitions > partitions) {
      steps.push({ action: 'cannot', name, topic, reason: `has ${current.partitions} partitions, the plan ${partitions}: Kafka cannot remove partitions; keep ${current.partitions} (set SKRYA_TOPIC_PARTITIONS=${name}=${current.partitions}) or move to a new prefix` });
    }
    if (current.replicationFactor !== layout.replicationFactor) {
      steps.push({ action: 'cannot', name, topic, reason: `has replication factor ${current.replicationFactor}, the plan ${layout.replicationFactor}: change it with a partition reassignment (kafka-reassign-partitions.sh); Skrya never recreates a topic` });
    }
    const changes = Object.entries(desiredConfig)
      .filter(([config, value]) => current.config[config] !== value)
      .map(([config, to]) => ({ config, from: current.config[config] ?? null, to }));
    if (changes.length > 0) steps.push({ action: 'alter-config', name, topic, changes, config: { ...current.config, ...desiredConfig } });
    if (steps.length === before) steps.push({ action: 'keep', name, topic });
  }
  return steps;
}

/** One line per step, as `skrya topics plan` prints them. */
export function describeStep(step: TopicPlanStep): string {
  switch (step.action) {
    case 'create':
      return `create          ${step.topic} partitions=${step.partitions} replication=${step.replicationFactor} min.insync.replicas=${step.config['min.insync.replicas']}`;
    case 'keep':
      return `keep            ${step.topic}`;
    case 'add-partitions':
      return `add-partitions  ${step.topic} ${step.from} -> ${step.to} (keys move to other partitions: drain the pipeline first)`;
    case 'alter-config':
      return `alter-config    ${step.topic} ${step.changes.map((change) => `${change.config}: ${change.from ?? '(unset)'} -> ${change.to}`).join(', ')}`;
    case 'cannot':
      return `cannot          ${step.topic} ${step.reason}`;
  }
}
