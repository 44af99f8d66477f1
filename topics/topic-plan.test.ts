import { describe, expect, it } from 'vitest';
import { configSchema } from '../runtime/config.ts';
import { isSkryaError } from '../runtime/errors.ts';
import { TOPICS } from './topics.ts';
import { describeStep, desiredTopicConfig, planTopics, topicLayout, type ExistingTopic } from './topic-plan.ts';

const naming = { prefix: 'p.' };

function layoutFor(env: Record<string, string>) {
  return topicLayout(configSchema.parse(env));
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    layoutFor(env);
    return [];
  } catch (error) {
    if (!isSkryaError(error) || error.code !== 'CONFIG_INVALID') throw error;
    return error.message.split('\n').slice(1);
  }
}

describe('topic layout', () => {
  it('is replication 1 / min ISR 1 locally and 3 / 2 on a cluster, with the table\'s partitions', () => {
    expect(layoutFor({})).toMatchObject({ replicationFactor: 1, minInsyncReplicas: 1, partitions: { 'raw-results': TOPICS['raw-results'].partitions } });
    expect(layoutFor({ SKRYA_TOPIC_PROFILE: 'cluster' })).toMatchObject({ replicationFactor: 3, minInsyncReplicas: 2 });
  });

  it('takes partitions per topic and explicit replication settings', () => {
    const layout = layoutFor({ SKRYA_TOPIC_PROFILE: 'cluster', SKRYA_TOPIC_PARTITIONS: 'raw-results=12, scored-results=24', SKRYA_TOPIC_REPLICATION_FACTOR: '5', SKRYA_TOPIC_MIN_INSYNC_REPLICAS: '3' });
    expect(layout).toMatchObject({ replicationFactor: 5, minInsyncReplicas: 3, partitions: { 'raw-results': 12, 'scored-results': 24, 'ingest-normalized': TOPICS['ingest-normalized'].partitions } });
    // A lower replication factor caps the profile's min ISR instead of refusing every write.
    expect(layoutFor({ SKRYA_TOPIC_PROFILE: 'cluster', SKRYA_TOPIC_REPLICATION_FACTOR: '1' }).minInsyncReplicas).toBe(1);
  });

  it.each([
    ['an unknown topic', { SKRYA_TOPIC_PARTITIONS: 'raw=12' }, /not <topic>=<partitions>/],
    ['zero partitions', { SKRYA_TOPIC_PARTITIONS: 'raw-results=0' }, /needs 1 to 1024 partitions/],
    ['another partition count for the monitor state', { SKRYA_TOPIC_PARTITIONS: 'monitor-state=3' }, /monitor-state always has 12 partition\(s\): they are the monitors' shards/],
    ['another partition count for the topic configs', { SKRYA_TOPIC_PARTITIONS: 'topic-configs=24' }, /topic-configs always has 12 partition\(s\)/],
    ['a min ISR above the replication factor', { SKRYA_TOPIC_REPLICATION_FACTOR: '2', SKRYA_TOPIC_MIN_INSYNC_REPLICAS: '3' }, /exceeds the replication factor/],
  ])('refuses %s', (_name, env, pattern) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(pattern);
  });
});

describe('topic plan', () => {
  const layout = layoutFor({ SKRYA_TOPIC_PROFILE: 'cluster', SKRYA_TOPIC_PARTITIONS: 'raw-results=12' });
  const matching = (name: 'raw-results' | 'scored-results', extra: Partial<ExistingTopic> = {}): ExistingTopic => ({
    partitions: layout.partitions[name], replicationFactor: 3, config: desiredTopicConfig(layout, name), ...extra,
  });

  it('creates what is missing with the layout\'s partitions, replication and min ISR', () => {
    const [step] = planTopics(layout, naming, new Map(), ['raw-results']);
    expect(step).toEqual({
      action: 'create', name: 'raw-results', topic: 'p.raw-results', partitions: 12, replicationFactor: 3,
      config: { ...TOPICS['raw-results'].config, 'min.insync.replicas': '2' },
    });
    expect(describeStep(step!)).toBe('create          p.raw-results partitions=12 replication=3 min.insync.replicas=2');
  });

  it('keeps a topic that matches', () => {
    expect(planTopics(layout, naming, new Map([['p.scored-results', matching('scored-results')]]), ['scored-results'])).toEqual([{ action: 'keep', name: 'scored-results', topic: 'p.scored-results' }]);
  });

  it('adds partitions and sets a changed config, keeping the operator\'s own configs', () => {
    const existing = matching('raw-results', { partitions: 6, config: { ...desiredTopicConfig(layout, 'raw-results'), 'min.insync.replicas': '1', 'segment.bytes': '1048576' } });
    const steps = planTopics(layout, naming, new Map([['p.raw-results', existing]]), ['raw-results']);
    expect(steps).toEqual([
      { action: 'add-partitions', name: 'raw-results', topic: 'p.raw-results', from: 6, to: 12 },
      {
        action: 'alter-config', name: 'raw-results', topic: 'p.raw-results', changes: [{ config: 'min.insync.replicas', from: '1', to: '2' }],
        config: { ...desiredTopicConfig(layout, 'raw-results'), 'segment.bytes': '1048576' },
      },
    ]);
  });

  it('never removes partitions or recreates a topic for another replication factor: it says what to do', () => {
    const existing = matching('raw-results', { partitions: 24, replicationFactor: 1 });
    const steps = planTopics(layout, naming, new Map([['p.raw-results', existing]]), ['raw-results']);
    expect(steps.map((step) => step.action)).toEqual(['cannot', 'cannot']);
    expect(steps.map(describeStep).join('\n')).toMatch(/cannot remove partitions[\s\S]*kafka-reassign-partitions/);
  });
});
