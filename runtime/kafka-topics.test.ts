import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createTopicsServed } from './kafka.ts';

/**
 * The answers a broker gives for a topic it has just created, one request after another: a list of
 * leaders, or an error, for a metadata request; `served: false` makes the offset read that follows
 * leaders fail with `NOT_LEADER_FOR_PARTITION`, as a leader not yet serving its partition does.
 */
function adminAnswering(answers: ReadonlyArray<Error | number[] | { leaders: number[]; served: boolean }>): { admin: Admin; requests: () => number } {
  let requests = 0;
  let served = true;
  const admin = {
    createTopics: async () => true,
    fetchTopicMetadata: async () => {
      const answer = answers[Math.min(requests, answers.length - 1)]!;
      requests += 1;
      if (answer instanceof Error) throw answer;
      const leaders = Array.isArray(answer) ? answer : answer.leaders;
      served = Array.isArray(answer) || answer.served;
      return { topics: [{ name: 't', partitions: leaders.map((leader, partitionId) => ({ partitionId, leader, replicas: [], isr: [], partitionErrorCode: 0 })) }] };
    },
    fetchTopicOffsets: async () => {
      if (!served) throw kafkaError('NOT_LEADER_FOR_PARTITION');
      return [];
    },
  } as unknown as Admin;
  return { admin, requests: () => requests };
}

function kafkaError(type: string): Error {
  return Object.assign(new Error(type), { type });
}

describe('createTopicsServed', () => {
  it('waits while the broker does not know the new topic yet, a partition has no leader, or its leader does not serve it yet', async () => {
    const broker = adminAnswering([kafkaError('UNKNOWN_TOPIC_OR_PARTITION'), kafkaError('LEADER_NOT_AVAILABLE'), [1, -1], { leaders: [1, 1], served: false }, [1, 1]]);
    await createTopicsServed(broker.admin, [{ topic: 't', numPartitions: 2 }]);
    expect(broker.requests()).toBe(5);
  });

  it('fails at once on any other metadata error', async () => {
    const broker = adminAnswering([kafkaError('TOPIC_AUTHORIZATION_FAILED')]);
    await expect(createTopicsServed(broker.admin, [{ topic: 't', numPartitions: 1 }])).rejects.toThrow('TOPIC_AUTHORIZATION_FAILED');
    expect(broker.requests()).toBe(1);
  });

  it('gives up at its deadline on a topic that never gets a leader', async () => {
    const broker = adminAnswering([[-1]]);
    await expect(createTopicsServed(broker.admin, [{ topic: 't', numPartitions: 1 }], 0)).rejects.toThrow('topics not served by a leader');
  });
});
