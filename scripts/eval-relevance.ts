/**
 * Ranking quality on the judged relevance set (docs/relevance-rubric.md):
 *   npm run eval:relevance [-- --split dev|test|all] [--pools] [--json]
 * Prints nDCG@10 and P@5 with 95 % bootstrap intervals for Skrya's ranking, the providers' own
 * order and random order, overall, by language and by intent, plus Skrya − provider per query,
 * and near-duplicate recall and false merges on the split's labelled copy pairs.
 * Tune on dev; test is for reporting. Exit 1 when the set cannot be read.
 */
import { fileURLToPath } from 'node:url';
import { INTENTS } from '../schemas/ingest.ts';
import { evaluateNearDuplicates, evaluateRelevance, type Interval, JUDGED_SET_DIR, type JudgedPool, loadJudgedSet, type NearDuplicateReport, RANKERS, type RelevanceReport, type SliceReport } from '../services/collector/index.ts';

const args = process.argv.slice(2);
const splitArg = args.includes('--split') ? args[args.indexOf('--split') + 1] : 'test';
if (splitArg !== 'dev' && splitArg !== 'test' && splitArg !== 'all') {
  process.stderr.write(`eval-relevance: --split must be dev, test or all, not ${String(splitArg)}\n`);
  process.exit(2);
}

let pools: JudgedPool[];
try {
  pools = loadJudgedSet(fileURLToPath(JUDGED_SET_DIR));
} catch (error) {
  process.stderr.write(`eval-relevance: cannot read the judged set: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const report = evaluateRelevance(pools, splitArg);
const nearDuplicates = evaluateNearDuplicates(pools.filter((pool) => splitArg === 'all' || pool.split === splitArg));
if (args.includes('--json')) {
  const { pools: perPool, ...slices } = report;
  process.stdout.write(`${JSON.stringify({ ...slices, pools: perPool.map((score) => ({ id: score.pool.id, ndcg: score.ndcg, precision: score.precision })), nearDuplicates }, null, 2)}\n`);
  process.exit(0);
}

const f = (value: number) => value.toFixed(3);
const ci = (interval: Interval) => `${f(interval.mean)} [${f(interval.low)}–${f(interval.high)}]`;
const signed = (interval: Interval) => `${interval.mean >= 0 ? '+' : ''}${f(interval.mean)} [${interval.low >= 0 ? '+' : ''}${f(interval.low)} to ${interval.high >= 0 ? '+' : ''}${f(interval.high)}]`;

function table(title: string, rows: readonly SliceReport[]): string {
  const header = `| ${title} | n | ${RANKERS.map((ranker) => `nDCG@10 ${ranker}`).join(' | ')} | Skrya − provider (wins/ties/losses) | ${RANKERS.map((ranker) => `P@5 ${ranker}`).join(' | ')} |`;
  const rule = `|${'---|'.repeat(3 + RANKERS.length * 2)}`;
  const lines = rows.map((row) => `| ${row.name} | ${row.pools} | ${RANKERS.map((ranker) => ci(row.ndcg[ranker])).join(' | ')} | ${signed(row.ndcgGainOverProvider)} (${row.wins}/${row.ties}/${row.losses}) | ${RANKERS.map((ranker) => ci(row.precision[ranker])).join(' | ')} |`);
  return [header, rule, ...lines].join('\n');
}

function printNearDuplicates(found: NearDuplicateReport): void {
  process.stdout.write(`\nnear-duplicates: recall ${f(found.recall)} (${found.foundPairs}/${found.positivePairs} copy pairs), false merges ${found.falseMerges} of ${found.negativePairs} other pairs, ${found.crossVersionFalseMerges} of ${found.crossVersionPairs} across versions\n`);
  for (const miss of found.misses) process.stdout.write(`  missed: ${miss.pool} ${miss.a} ~ ${miss.b}\n`);
  for (const wrong of found.wrongMerges) process.stdout.write(`  wrongly merged: ${wrong.pool} ${wrong.a} ~ ${wrong.b}\n`);
}

function print(result: RelevanceReport): void {
  process.stdout.write(`judged relevance set, split: ${result.split} (${result.pools.length} queries)\n\n`);
  process.stdout.write(`${table('slice', [result.overall, result.byLanguage.en, result.byLanguage.zh])}\n\n`);
  process.stdout.write(`${table('intent', INTENTS.map((intent) => result.byIntent[intent]))}\n`);
  if (args.includes('--pools')) {
    process.stdout.write('\n| pool | split | nDCG@10 skrya | provider | random | Skrya top 5 (document ids) |\n|---|---|---|---|---|---|\n');
    for (const score of result.pools) {
      process.stdout.write(`| ${score.pool.id} | ${score.pool.split} | ${f(score.ndcg.skrya)} | ${f(score.ndcg.provider)} | ${f(score.ndcg.random)} | ${score.skryaRanking.slice(0, 5).map((doc) => `${doc} (${score.pool.grades.get(doc) ?? 0})`).join(', ')} |\n`);
    }
  }
}

print(report);
printNearDuplicates(nearDuplicates);
