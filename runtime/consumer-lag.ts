/**
 * How far each consumer group is behind, per topic and partition, as the broker sees it now:
 * the group's committed offset against the partition's end offset. Read with the admin client
 * only, so no group is joined or moved.
 */
import type { Kafka } from './kafka.ts';

export interface PartitionLag {
  topic: string;
  partition: number;
  /** The group's next offset to read; null when it has committed nothing on this partition yet. */
  committed: string | null;
  end: string;
  /** Messages not yet committed: from the committed offset (or the partition's start) to the end. */
  lag: number;
}

export interface GroupLag {
  groupId: string;
  partitions: PartitionLag[];
  total: number;
}

export async function readConsumerLag(kafka: Kafka, groupIds: readonly string[]): Promise<GroupLag[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    // A new admin knows no brokers until it reads metadata: fetchOffsets would ask for the group
    // coordinator first, find none, and wait kafkajs's retry delay (300 ms or more) on every read.
    // Cluster metadata with no topics is one small request that fills the broker pool.
    await admin.describeCluster();
    const ends = new Map<string, Map<number, { low: bigint; high: bigint }>>();
    const topicOffsets = async (topic: string) => {
      if (!ends.has(topic)) ends.set(topic, new Map((await admin.fetchTopicOffsets(topic)).map(({ partition, low, high }) => [partition, { low: BigInt(low), high: BigInt(high) }])));
      return ends.get(topic)!;
    };
    const groups: GroupLag[] = [];
    for (const groupId of groupIds) {
      // Without `topics`, every topic the group has committed offsets on.
      const committed = await admin.fetchOffsets({ groupId });
      const partitions: PartitionLag[] = [];
      for (const { topic, partitions: offsets } of committed) {
        const bounds = await topicOffsets(topic);
        const positions = new Map(offsets.map(({ partition, offset }) => [partition, offset === '-1' ? null : BigInt(offset)]));
        // Every partition of the topic: one the group has not committed on yet is behind by all it holds.
        for (const [partition, range] of bounds) {
          const position = positions.get(partition) ?? null;
          const from = position === null || position < range.low ? range.low : position;
          partitions.push({ topic, partition, committed: position === null ? null : String(position), end: String(range.high), lag: Number(range.high > from ? range.high - from : 0n) });
        }
      }
      partitions.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
      groups.push({ groupId, partitions, total: partitions.reduce((sum, entry) => sum + entry.lag, 0) });
    }
    return groups;
  } finally {
    await admin.disconnect();
  }
}
