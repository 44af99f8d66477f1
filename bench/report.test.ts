import { describe, expect, it } from 'vitest';
import { latencyLimit } from './report.ts';

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
