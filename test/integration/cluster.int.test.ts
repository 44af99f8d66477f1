/**
 * Skrya on a 3-broker SASL_SSL cluster (KRaft, ACLs on, certificates from a private CA): `skrya
 * topics` lays the topics out with replication 3 and min.insync.replicas 2; `skrya doctor` passes
 * for the services' user and names the problem, with exit 1, for a wrong password, a CA that did not
 * sign the brokers' certificates, and a user without ACLs; and the pipeline (scorer, collector, sink)
 * writes every item of every run exactly once through the secured cluster.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificateAuthority } from '../../infra/tls-material.ts';
import type { Finding } from '../../runtime/doctor.ts';
import { createPublisher } from '../../runtime/publishers.ts';
import { runStages } from '../../services/run-services.ts';
import { TOPIC_NAMES } from '../../topics/topics.ts';
import { waitUntil } from '../support/fault-processes.ts';
import { groupLag, judgeWorkload, planWorkload, publishStep, publishingSteps } from '../support/fault-workload.ts';
import { startTestCluster, type TestCluster } from '../support/test-cluster.ts';

const CLI = path.resolve('bin/skrya.js');
const PREFIX = `t.cluster-cli.${process.pid}.`;

let cluster: TestCluster;
let scratch: string;

beforeAll(async () => {
  cluster = await startTestCluster('int', (line) => process.stderr.write(`[cluster] ${line}\n`));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-cluster-int-'));
}, 300_000);

afterAll(async () => {
  await cluster?.down();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
}, 120_000);

function skrya(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, SKRYA_TOPIC_PREFIX: PREFIX, SKRYA_LOG_LEVEL: 'error', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function doctor(env: Record<string, string>): Promise<{ code: number; findings: Finding[] }> {
  const result = await skrya(['doctor', '--json'], env);
  return { code: result.code, findings: JSON.parse(result.stdout) as Finding[] };
}

describe('a 3-broker SASL_SSL cluster', () => {
  it('gets its topics with replication 3 and min.insync.replicas 2 from `topics apply`, and `topics plan` then keeps them all', async () => {
    const applied = await skrya(['topics', 'apply'], cluster.env());
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(new RegExp(`done\\s+create\\s+${PREFIX.replaceAll('.', '\\.')}raw-results partitions=6 replication=3 min.insync.replicas=2`));
    const plan = await skrya(['topics', 'plan', '--json'], cluster.env());
    expect(plan.code).toBe(0);
    const steps = (JSON.parse(plan.stdout) as { steps: Array<{ action: string }> }).steps;
    expect(steps.map((step) => step.action)).toEqual(Array(TOPIC_NAMES.length).fill('keep'));
  });

  it('passes `skrya doctor` for the services\' user (SCRAM-SHA-512, and PLAIN), transactional id included', async () => {
    const scram = await doctor(cluster.env());
    expect(scram.findings.filter((finding) => finding.status !== 'ok')).toEqual([expect.objectContaining({ code: 'TRANSACTIONAL_ID_NOT_PROBED', status: 'warn' })]);
    expect(scram.code).toBe(0);
    const probed = await skrya(['doctor', '--json', '--probe-transactions'], cluster.env('skrya', 'plain'));
    expect(probed.code).toBe(0);
    expect((JSON.parse(probed.stdout) as Finding[]).every((finding) => finding.status === 'ok')).toBe(true);
  });

  it('fails `skrya doctor` with AUTH_FAILED for a wrong password', async () => {
    const wrong = path.join(scratch, 'wrong.password');
    fs.writeFileSync(wrong, 'not-the-password');
    const { code, findings } = await doctor({ ...cluster.env(), SKRYA_KAFKA_SASL_PASSWORD_FILE: wrong });
    expect(code).toBe(1);
    expect(findings[0]).toMatchObject({ check: 'connection', status: 'fail', code: 'AUTH_FAILED' });
    expect(JSON.stringify(findings)).not.toContain(fs.readFileSync(path.join(cluster.settings.stateDir, 'credentials', 'skrya.password'), 'utf8'));
  });

  it('fails `skrya doctor` with TLS_UNTRUSTED for a CA that did not sign the brokers\' certificates', async () => {
    const otherCa = makeCertificateAuthority(path.join(scratch, 'other-ca'), 'some-other-ca');
    const { code, findings } = await doctor({ ...cluster.env(), SKRYA_KAFKA_TLS_CA_FILE: otherCa });
    expect(code).toBe(1);
    expect(findings[0]).toMatchObject({ check: 'connection', status: 'fail', code: 'TLS_UNTRUSTED' });
    expect(findings[0]!.fix).toContain('SKRYA_KAFKA_TLS_CA_FILE');
  });

  it('fails `skrya doctor` with TOPIC_NOT_AUTHORIZED and GROUP_NOT_AUTHORIZED for a user without ACLs', async () => {
    const { code, findings } = await doctor(cluster.env('outsider'));
    expect(code).toBe(1);
    expect(findings.find((finding) => finding.check === 'connection')).toMatchObject({ status: 'ok' });
    const topics = findings.filter((finding) => finding.check === 'topic');
    expect(topics).toHaveLength(TOPIC_NAMES.length);
    expect(new Set(topics.map((finding) => finding.code))).toEqual(new Set(['TOPIC_NOT_AUTHORIZED']));
    const groups = findings.filter((finding) => finding.check === 'group');
    expect(groups.length).toBeGreaterThan(0);
    expect(new Set(groups.map((finding) => finding.code))).toEqual(new Set(['GROUP_NOT_AUTHORIZED']));
  });

  it('runs scorer, collector and sink through it: every item of every run lands exactly once', async () => {
    const { pipeline, dataRoot, close } = await cluster.connect('cluster-pipeline', { SKRYA_RUN_TIMEOUT_MS: '600000', SKRYA_SCORER_WORKERS: '0' });
    const runs = planWorkload({ tenant: 'acme', topics: 4, runsPerTopic: 3, responsesPerRun: 2, itemsPerResponse: 4, label: 'cluster' });
    const stages = await runStages(pipeline, ['scorer', 'collector', 'sink']);
    const publisher = await createPublisher({ kafka: pipeline.kafka, serde: pipeline.port.serde, naming: pipeline.port.naming, stage: 'cluster-test' });
    const admin = pipeline.kafka.admin();
    await admin.connect();
    try {
      for (const step of publishingSteps(runs)) await publishStep(publisher, step);
      // Settled: every run file is exact and the scorer and the sink have committed all their input.
      // (The collector's last commit on a partition can trail its last closed run; see the README.)
      await waitUntil('every run file, and the scorer\'s and sink\'s commits', async () => {
        if (judgeWorkload(dataRoot, runs).exact !== runs.length) return false;
        for (const [service, input] of [['scorer', 'raw-results'], ['sink', 'ingest-normalized']] as const) {
          if ((await groupLag(admin, pipeline.port.naming, service, input)) !== 0) return false;
        }
        return true;
      }, 180_000, { intervalMs: 500 });
      const verdict = judgeWorkload(dataRoot, runs);
      expect(verdict.wrongRuns).toEqual([]);
      expect(verdict).toMatchObject({ runs: 12, exact: 12, lostItems: 0, duplicatedItems: 0, missingRuns: [], strayFiles: [] });
      const metadata = await admin.fetchTopicMetadata({ topics: [`${pipeline.port.naming.prefix}raw-results`] });
      expect(metadata.topics[0]!.partitions.every((partition) => partition.replicas.length === 3 && partition.isr.length === 3)).toBe(true);
    } finally {
      await admin.disconnect();
      await publisher.close();
      await stages.stop();
      await close();
    }
  }, 300_000);
});
