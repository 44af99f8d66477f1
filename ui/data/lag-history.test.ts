import { describe, expect, it } from 'vitest';
import { createLagHistory } from './lag-history.ts';

const group = (groupId: string, committed: Array<string | null>, lag: number) => ({
  groupId,
  total: lag,
  partitions: committed.map((offset, partition) => ({ topic: 't', partition, committed: offset, end: '100', lag: lag / committed.length })),
});

describe('lag history', () => {
  it('has no throughput from a single sample', () => {
    const history = createLagHistory();
    history.record(0, [group('g', ['10'], 5)]);
    expect(history.throughput()).toEqual({ g: null });
  });

  it('measures committed offsets per second between the oldest and newest sample, across partitions', () => {
    const history = createLagHistory();
    history.record(0, [group('g', ['10', null], 8)]);
    history.record(5_000, [group('g', ['20', '5'], 4)]);
    history.record(10_000, [group('g', ['40', '10'], 0)]);
    expect(history.throughput()).toEqual({ g: 4 });
    expect(history.samples().map((sample) => sample.groups.g!.lag)).toEqual([8, 4, 0]);
  });

  it('keeps only the newest samples', () => {
    const history = createLagHistory(2);
    for (let at = 0; at < 5; at += 1) history.record(at * 1000, [group('g', [String(at * 10)], 0)]);
    expect(history.samples().map((sample) => sample.at)).toEqual([3000, 4000]);
    expect(history.throughput()).toEqual({ g: 10 });
  });
});
