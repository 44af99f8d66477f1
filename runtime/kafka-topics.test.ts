import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createTopicsServed } from './kafka.ts';

/** The answers a broker gives, one metadata request after another, for a topic it has just created. */
function adminAnswering(answers: ReadonlyArray<Error | number[]>): { admin: Admin; requests: () => number } {
  let requests = 0;
  const admin = {
    createTopics: async () => true,
    fetchTopicMetadata: async () => {
      const answer = answers[Math.min(requests, answers.length - 1)]!;
      requests += 1;
      if (answer instanceof Error) throw answer;
      return { topics: [{ name: 't', partitions: answer.map((leader, partitionId) => ({ partitionId, leader, replicas: [], isr: [], partitionErrorCode: 0 })) }] };
    },
  } as unknown as Admin;
  return { admin, requests: () => requests };
}

function kafkaError(type: string): Error {
  return Object.assign(new Error(type), { type });
}

describe('createTopicsServed', () => {
  it('waits while the broker does not know the new topic yet, or a partition has no leader', async () => {
    const broker = adminAnswering([kafkaError('UNKNOWN_TOPIC_OR_PARTITION'), kafkaError('LEADER_NOT_AVAILABLE'), [1, -1], [1, 1]]);
    await createTopicsServed(broker.admin, [{ topic: 't', numPartitions: 2 }]);
    expect(broker.requests()).toBe(4);
  });

  it('fails at once on any other metadata error', async () => {
    const broker = adminAnswering([kafkaError('TOPIC_AUTHORIZATION_FAILED')]);
    await expect(createTopicsServed(broker.admin, [{ topic: 't', numPartitions: 1 }])).rejects.toThrow('TOPIC_AUTHORIZATION_FAILED');
    expect(broker.requests()).toBe(1);
  });

  it('gives up at its deadline on a topic that never gets a leader', async () => {
    const broker = adminAnswering([[-1]]);
    await expect(createTopicsServed(broker.admin, [{ topic: 't', numPartitions: 1 }], 0)).rejects.toThrow('topics without a leader');
  });
});
