/**
 * Stable cuts under kill -9: a tie-heavy workload (every run of a topic finds the same 12 or 18
 * items, all with one score, in a different order each run, cut to 5) goes once through scorer,
 * collector and sink processes left alone, and once through processes each SIGKILLed twice at random
 * moments and restarted. Every file the sink writes (each run's normalized/<timestamp>.json,
 * latest-ingest.json, digest.md and the topic's evidence memory) is byte for byte the same in both,
 * every run of a topic keeps the same items, and every run after the first reports no change.
 * SKRYA_FAULT_SEED replays a kill schedule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestDir } from '../../runtime/data-paths.ts';
import { canonicalUrl } from '../../domain/urls/canonical-url.ts';
import { runKillCampaign, type KillCampaignResult } from '../support/fault-campaign.ts';
import { planWorkload, runFile, type WorkloadShape } from '../support/fault-workload.ts';
import { createHarness, listFiles, type Harness } from '../support/pipeline-harness.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const SEED = Number(process.env.SKRYA_FAULT_SEED ?? Date.now() % 2_147_483_647);
const MAX_ITEMS = 5;

let undisturbed: Harness;
let killed: Harness;
let logDir: string;

beforeAll(async () => {
  undisturbed = await createHarness('ties-calm');
  killed = await createHarness('ties-kill');
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fault-ties-logs-'));
});

afterAll(async () => {
  await undisturbed?.close();
  await killed?.close();
});

/** Every file under each topic's ingest folder, by its path relative to the data root, with its bytes. */
function sinkFiles(dataRoot: string, tenant: string, topics: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const topicId of topics) {
    const dir = ingestDir(dataRoot, parseTenantId(tenant), parseTopicId(topicId));
    for (const name of listFiles(dir)) files[`${topicId}/${name}`] = fs.readFileSync(path.join(dir, name), 'utf8');
  }
  return files;
}

interface RunDocument {
  run_id: string;
  status: string;
  items: Array<{ canonical_url: string }>;
  changes: { previous_run_id: string | null; new: unknown[]; changed: unknown[]; moved_in: unknown[]; moved_out: unknown[]; removed: unknown[] };
}

describe('a tie-heavy workload under kill -9', () => {
  it('gives the same files as an undisturbed pipeline, with the same cut in every run', async () => {
    const shape: WorkloadShape = { tenant: 'acme', topics: 2, runsPerTopic: 4, responsesPerRun: 2, itemsPerResponse: 6, label: `t${SEED.toString(36)}`, tieHeavy: { maxItems: MAX_ITEMS } };
    const campaign = (harness: Harness, killsPerService: number) => runKillCampaign({
      pipeline: harness.pipeline,
      shape,
      killsPerService,
      seed: SEED,
      logDir: path.join(logDir, killsPerService === 0 ? 'calm' : 'killed'),
      settleTimeoutMs: 120_000,
      report: (line) => process.stderr.write(`[fault-ties seed=${SEED}] ${line}\n`),
    });
    let calm: KillCampaignResult;
    let stormy: KillCampaignResult;
    try {
      calm = await campaign(undisturbed, 0);
      stormy = await campaign(killed, 2);
    } catch (error) {
      throw new Error(`seed ${SEED}, service logs in ${logDir}: ${String(error)}`, { cause: error });
    }
    expect(stormy.kills).toHaveLength(6);
    for (const result of [calm, stormy]) {
      expect(result.verdict.missingRuns).toEqual([]);
      expect(result.verdict.strayFiles).toEqual([]);
      expect(result.deadLetters).toBe(0);
    }

    const runs = planWorkload(shape);
    const topics = [...new Set(runs.map((run) => run.topicId))];
    const calmFiles = sinkFiles(undisturbed.dataRoot, shape.tenant, topics);
    expect(Object.keys(calmFiles)).toHaveLength(topics.length * (shape.runsPerTopic + 3));
    expect(sinkFiles(killed.dataRoot, shape.tenant, topics)).toEqual(calmFiles);

    for (const topicId of topics) {
      const topicRuns = runs.filter((run) => run.topicId === topicId);
      const documents = topicRuns.map((run) => JSON.parse(fs.readFileSync(runFile(killed.dataRoot, run), 'utf8')) as RunDocument);
      // The cut is decided by canonical URL among equal scores: the first five, in every run.
      const expected = topicRuns[0]!.urls.map((url) => canonicalUrl(url)).sort().slice(0, MAX_ITEMS);
      for (const [index, document] of documents.entries()) {
        expect(document.status).toBe('ok');
        expect(document.items.map((item) => item.canonical_url)).toEqual(expected);
        expect(JSON.stringify(document.items)).toBe(JSON.stringify(documents[0]!.items));
        if (index > 0) expect(document.changes).toEqual({ previous_run_id: topicRuns[index - 1]!.runId, new: [], changed: [], moved_in: [], moved_out: [], removed: [] });
      }
    }
    fs.rmSync(logDir, { recursive: true, force: true });
  }, 600_000);
});
