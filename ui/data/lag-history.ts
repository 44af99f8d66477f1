/**
 * Consumer lag over time, kept in memory by the UI process: each sample is what the broker said at
 * one moment (per group: total lag and the sum of committed offsets). Throughput is the committed
 * offsets' growth between the oldest and newest sample in the window, per second.
 */
import type { GroupLag } from '../../runtime/consumer-lag.ts';

export interface LagSample {
  at: number;
  groups: Record<string, { lag: number; committed: number }>;
}

export interface LagHistory {
  record(at: number, groups: readonly GroupLag[]): void;
  samples(): readonly LagSample[];
  /** Messages committed per second by each group over the samples kept, or null with fewer than two. */
  throughput(): Record<string, number | null>;
}

export function createLagHistory(maxSamples = 120): LagHistory {
  const samples: LagSample[] = [];
  return {
    record(at, groups) {
      const entry: LagSample = { at, groups: {} };
      for (const group of groups) {
        entry.groups[group.groupId] = { lag: group.total, committed: group.partitions.reduce((sum, partition) => sum + (partition.committed === null ? 0 : Number(partition.committed)), 0) };
      }
      samples.push(entry);
      if (samples.length > maxSamples) samples.splice(0, samples.length - maxSamples);
    },
    samples: () => samples,
    throughput() {
      const rates: Record<string, number | null> = {};
      const first = samples[0];
      const last = samples.at(-1);
      for (const groupId of Object.keys(last?.groups ?? {})) {
        const before = first?.groups[groupId];
        const after = last!.groups[groupId]!;
        const seconds = (last!.at - (first?.at ?? last!.at)) / 1000;
        rates[groupId] = before === undefined || seconds <= 0 ? null : Math.max(0, after.committed - before.committed) / seconds;
      }
      return rates;
    },
  };
}
