import { describe, expect, it } from 'vitest';
import { classifyQueryVerdict, latencyLimit, screenVerdict, yardstickShortfall } from './report.ts';

describe('latencyLimit', () => {
  it('blames the machine when its cores had nothing to spare', () => {
    const why = latencyLimit({ eventLoopBusy: 0.97, cpuShare: 1.3, machineBusy: 0.95 }, 2);
    expect(why).toMatch(/^the machine had no CPU to spare: its 2 cores were 95 % busy/);
    expect(why).toContain('1.3 CPU s/s, its event loop busy 97 %');
  });

  it('blames the one event loop when it was full and the cores were not', () => {
    const why = latencyLimit({ eventLoopBusy: 0.93, cpuShare: 1.1, machineBusy: 0.7 }, 2);
    expect(why).toMatch(/^runs queued behind one event loop/);
    expect(why).toContain("the machine's cores 70 % busy");
  });

  it('says the process waited on the broker when nothing was busy', () => {
    expect(latencyLimit({ eventLoopBusy: 0.4, cpuShare: 0.5, machineBusy: 0.5 }, 2)).toMatch(/^not CPU-bound .*: it waited on the broker$/);
  });
});

describe('yardstickShortfall', () => {
  const runs = (...walls: number[]) => walls.map((wallMs) => ({ wallMs }));

  it("says by how much, and rank's CPU and cores against the yardstick's", () => {
    const why = yardstickShortfall({ medianWallMs: 4_000, medianCpuMs: 6_400, runs: runs(4_000, 4_100, 3_900) }, { medianWallMs: 3_800, medianCpuMs: 4_000, runs: runs(3_800, 3_850, 3_750) });
    expect(why).toMatch(/^by 0\.05×: rank spent 1\.6× the yardstick's CPU \(6\.4 s against 4 s\) and spread it over 1\.6 cores to the yardstick's 1\.05$/);
  });

  it("adds that the machine's speed moved when the yardstick's own runs spread apart", () => {
    const why = yardstickShortfall({ medianWallMs: 4_180, medianCpuMs: 6_790, runs: runs(3_770, 4_510, 4_180) }, { medianWallMs: 3_920, medianCpuMs: 4_160, runs: runs(3_710, 3_920, 6_310) });
    expect(why).toContain("the yardstick's own runs spread from 3.71 s to 6.31 s (1.7×) and the pairs from 0.66× to 1.15×: the machine's speed moved between runs");
  });
});

describe('screenVerdict and classifyQueryVerdict', () => {
  it('meet their aims without more words', () => {
    expect(screenVerdict(10_390, 20_368, 25_004)).toBe('met');
    expect(classifyQueryVerdict(0.217)).toBe('met');
  });

  it('say by how much, and which half of the screening is slower', () => {
    expect(screenVerdict(4_000, 12_000, 5_000)).toBe('**missed** by 1,000 items/s (1.25× too slow): the learned model alone ran 5,000 items/s, the rules 83.3 µs an item and the model 200');
    expect(screenVerdict(4_000, 4_500, 30_000)).toMatch(/: the rules alone ran 4,500 items\/s/);
    expect(classifyQueryVerdict(7.5)).toBe('**missed** by 2.5 ms a query (1.5×)');
  });
});
