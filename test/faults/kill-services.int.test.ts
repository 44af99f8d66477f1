/**
 * kill -9 mid-stream: scorer, collector and sink run as separate `skrya run` processes while 30 runs
 * over 5 topics (2 or 3 responses of 5 items each) are published step by step, so every topic always
 * has a run half-way through the pipeline and topics sharing a partition close their runs out of step.
 * Each service is SIGKILLed three times at random moments and restarted at once. Afterwards every
 * run's normalized/<timestamp>.json holds each of its items exactly once: nothing lost, nothing
 * duplicated, no run missing, incomplete or extra. SKRYA_FAULT_SEED replays a kill schedule (the
 * timing of the processes themselves is not replayable).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryRunExact, runKillCampaign, type KillCampaignResult } from '../support/fault-campaign.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';

const SEED = Number(process.env.SKRYA_FAULT_SEED ?? Date.now() % 2_147_483_647);

let harness: Harness;
let logDir: string;

beforeAll(async () => {
  harness = await createHarness('fault-kill');
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fault-kill-logs-'));
});

afterAll(async () => {
  await harness?.close();
});

describe('services killed with SIGKILL mid-stream and restarted', () => {
  it('write every input item exactly once into its run file', async () => {
    let result: KillCampaignResult | undefined;
    try {
      result = await runKillCampaign({
        pipeline: harness.pipeline,
        shape: { tenant: 'acme', topics: 5, runsPerTopic: 6, responsesPerRun: 2, itemsPerResponse: 5, label: `k${SEED.toString(36)}` },
        killsPerService: 3,
        seed: SEED,
        logDir,
        settleTimeoutMs: 120_000,
        report: (line) => process.stderr.write(`[fault-kill seed=${SEED}] ${line}\n`),
      });
    } catch (error) {
      throw new Error(`seed ${SEED}, service logs in ${logDir}: ${String(error)}`, { cause: error });
    }
    process.stderr.write(`[fault-kill seed=${SEED}] ${JSON.stringify({ seconds: result.seconds, redelivered: result.redelivered, exact: result.verdict.exact })}\n`);

    expect(result.kills).toHaveLength(9);
    expectEveryRunExact(result, 30);
    fs.rmSync(logDir, { recursive: true, force: true });
  }, 300_000);
});
