/**
 * `node bench/replay-ab.ts <other-tree> [--runs=N] [--alternations=N] [--workers=N] [--check]`
 *
 * This tree's replay path (createReplayStages: Avro serde, scorer, collector, sink files) against
 * another checkout of Skrya (say `git archive <commit> | tar -x -C /tmp/base`, with node_modules
 * linked in), both loaded in one process and run by turns on the same generated raw results. It
 * reports CPU time per item, all threads', and the event loop's share of it: on a machine others
 * share, wall clock across runs says nothing, but two versions taking turns in one process see the
 * same load (wall time per item is printed beside it). Each tree gets its own scoring pool of
 * `--workers` threads (SKRYA_SCORER_WORKERS by default, as `skrya replay`); a tree whose replay
 * scores only on the event loop leaves it idle. `--check` replays once with each and fails unless every replayed file and the replay's
 * result are byte for byte the same.
 *
 * No broker or registry: the serde is the real one over a registry kept in this process (schemas
 * registered and looked up by id), and its compatibility call goes to a local HTTP stub.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StoredRecord } from '../runtime/topic-readers.ts';
import { median, round } from './measure.ts';
import { generateRun } from './payloads.ts';
import { POOL_RUNS } from './replay.ts';
import { parseRunId } from '../runtime/ids.ts';
import { loadConfig } from '../runtime/config.ts';
import { inProcessRegistry, withRegistryStub } from './in-process-registry.ts';

type ReplayModule = typeof import('../services/replay/replay-stages.ts');
type SerdeModule = typeof import('../runtime/serde.ts');
type TopicsModule = typeof import('../topics/topics.ts');
type LoggerModule = typeof import('../runtime/logger.ts');
type ScorePoolModule = typeof import('../services/scorer/score-pool.ts');

interface Tree {
  name: string;
  replay: (targetDir: string) => Promise<unknown>;
}

async function loadTree(root: string, registryUrl: string, records: Array<{ key: Buffer; value: unknown }>, workers: number): Promise<Tree> {
  const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, file)).href)) as T;
  const { createReplayStages } = await load<ReplayModule>('services/replay/replay-stages.ts');
  const { createSerde } = await load<SerdeModule>('runtime/serde.ts');
  const { TOPIC_NAMES } = await load<TopicsModule>('topics/topics.ts');
  const { createLogger } = await load<LoggerModule>('runtime/logger.ts');
  const { createScorePool } = await load<ScorePoolModule>('services/scorer/score-pool.ts');
  // Each tree's own pool, for as long as the process runs; a tree whose replay takes none ignores it.
  const scorePool = workers === 0 ? undefined : createScorePool(workers);
  const serde = await createSerde({ registry: inProcessRegistry(), registryUrl, naming: { prefix: 'ab.' }, topics: TOPIC_NAMES });
  const stored: StoredRecord[] = [];
  for (const [offset, { key, value }] of records.entries()) stored.push({ partition: 0, offset: String(offset), timestamp: '0', key, value: await serde.encode('raw-results', value as never), headers: {} });
  return {
    name: root,
    async replay(targetDir) {
      const stages = createReplayStages({ serde, logger: createLogger({ level: 'warn', name: 'replay-ab' }), runTimeoutMs: 600_000, targetDir, scorePool });
      for (const record of stored) await stages.push(record);
      return stages.finish();
    },
  };
}

/**
 * One topic, as a replay reads; 20 items a run (two responses, Brave JSON and RSS). As in the bench's
 * replay, runs past the first 100 repeat them under new run ids, so their files replace earlier ones.
 */
function rawRecords(runs: number): Array<{ key: Buffer; value: unknown }> {
  const records: Array<{ key: Buffer; value: unknown }> = [];
  for (let runIndex = 0; runIndex < runs; runIndex++) {
    const run = generateRun({ label: 'replay-ab', runIndex: runIndex % POOL_RUNS, topicCount: 1, responsesPerRun: 2 });
    for (const value of run.messages) records.push({ key: Buffer.from(run.key), value: { ...value, run_id: parseRunId(`replay-ab-${runIndex}`) } });
  }
  return records;
}

function filesHash(dir: string, result: unknown): string {
  const hash = createHash('sha256');
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(dir, name)).isFile()).sort();
  for (const name of files) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  return hash.update(JSON.stringify(result)).digest('hex');
}

async function inFreshFolder<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-replay-ab-'));
  try {
    return await work(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const [other, ...flags] = process.argv.slice(2);
  if (!other) throw new Error('usage: node bench/replay-ab.ts <other-tree> [--runs=N] [--alternations=N] [--workers=N] [--check]');
  const option = (name: string, fallback: number) => Number(flags.find((flag) => flag.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  const runs = option('runs', 100);
  return withRegistryStub(async (registryUrl) => {
    const records = rawRecords(runs);
    // As `skrya replay` scores: in SKRYA_SCORER_WORKERS worker threads beside the event loop.
    const workers = option('workers', loadConfig().SKRYA_SCORER_WORKERS);
    const trees = [await loadTree(path.resolve(other), registryUrl, records, workers), await loadTree(path.resolve(import.meta.dirname, '..'), registryUrl, records, workers)];
    if (flags.includes('--check')) {
      const hashes = await Promise.all(trees.map((tree) => inFreshFolder(async (dir) => filesHash(dir, await tree.replay(dir)))));
      process.stdout.write(`${trees.map((tree, index) => `${tree.name}: ${hashes[index]}`).join('\n')}\n`);
      return hashes[0] === hashes[1] ? 0 : 1;
    }
    // A first replay with each warms it up; then they take turns, each starting every other round.
    for (const tree of trees) await inFreshFolder((dir) => tree.replay(dir));
    const cpuPerItem: number[][] = [[], []];
    const loopCpuPerItem: number[][] = [[], []];
    const wallPerItem: number[][] = [[], []];
    for (let round = 0; round < option('alternations', 8); round++) {
      for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const before = process.cpuUsage();
        const loopBefore = process.threadCpuUsage();
        const started = performance.now();
        await inFreshFolder((dir) => trees[index]!.replay(dir));
        wallPerItem[index]!.push(((performance.now() - started) * 1000) / (runs * 20));
        const used = process.cpuUsage(before);
        cpuPerItem[index]!.push((used.user + used.system) / (runs * 20));
        const loopUsed = process.threadCpuUsage(loopBefore);
        loopCpuPerItem[index]!.push((loopUsed.user + loopUsed.system) / (runs * 20));
      }
    }
    const list = (values: number[]) => values.map((value) => round(value, 0)).join(', ');
    for (const [index, tree] of trees.entries()) {
      process.stdout.write(`${tree.name}: median ${round(median(cpuPerItem[index]!), 0)} µs of CPU an item (${list(cpuPerItem[index]!)}), ${round(median(loopCpuPerItem[index]!), 0)} µs of it on the event loop (${list(loopCpuPerItem[index]!)}), ${round(median(wallPerItem[index]!), 0)} µs of wall (${list(wallPerItem[index]!)}), load ${os.loadavg().map((load) => round(load, 1)).join(' / ')}\n`);
    }
    return 0;
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
