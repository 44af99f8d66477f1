import path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import type { Command } from 'commander';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import { loadScoringModel } from '../../domain/scoring-model/load-scoring-model.ts';
import { loadConfig } from '../../runtime/config.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import { buildReplayRequest, type ReplayProgress, type ReplaySummary, replayTopic } from '../../services/replay/index.ts';
import { createScorePool } from '../../services/scorer/index.ts';

export interface ProgressReporter {
  update(event: ReplayProgress): void;
  stop(): void;
}

/** About twenty JSON lines, plus the first and last. */
function isReportStep(done: number, total: number): boolean {
  return done === 0 || done >= total || done % Math.max(1, Math.ceil(total / 20)) === 0;
}

/**
 * A progress bar on a terminal; otherwise JSON lines such as
 * {"phase":"replay","done":120,"total":400}, which scripts can follow.
 */
export function createProgressReporter(stream: NodeJS.WritableStream & { isTTY?: boolean }): ProgressReporter {
  if (!stream.isTTY) {
    return {
      update(event) {
        if (isReportStep(event.done, event.total)) stream.write(`${JSON.stringify({ phase: event.phase, done: event.done, total: event.total })}\n`);
      },
      stop() {},
    };
  }
  let bar: SingleBar | null = null;
  return {
    update(event) {
      if (bar === null) {
        bar = new SingleBar({ stream, format: `${event.phase} [{bar}] {value}/{total}`, hideCursor: true }, Presets.shades_classic);
        bar.start(event.total, event.done);
      } else {
        bar.update(event.done);
      }
    },
    stop: () => bar?.stop(),
  };
}

export function summaryLines(summary: ReplaySummary): string[] {
  const { report } = summary;
  const { totals } = report;
  return [
    `replay ${report.replay_id}: ${report.tenant}/${report.topic_id} ${report.since} .. ${report.until}`,
    `${report.inputs.read} raw results read, ${report.inputs.rejected.length} rejected; ${totals.runs} run(s), ${totals.incomplete} incomplete`,
    `${totals.new} new, ${totals.changed} changed, ${totals.removed} removed, ${totals.rescored} rescored, ${totals.unchanged} unchanged`,
    `written to ${summary.dir}`,
    summary.promoted ? `promoted to ${summary.promoted}` : summary.notPromoted ? `not promoted, latest-ingest.json left as it was: ${summary.notPromoted}` : 'latest-ingest.json left as it was (use --promote to replace it)',
  ];
}

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .option('--tenant <tenant>', 'tenant id', 'default')
    .requiredOption('--topic <topic-id>', 'topic id')
    .requiredOption('--since <iso>', 'first broker timestamp to read (ISO 8601 with a time zone)')
    .requiredOption('--until <iso>', 'last broker timestamp to read, inclusive (ISO 8601 with a time zone)')
    .option('--replay-id <id>', 'folder name under replays/ (default: made from --since and --until)')
    .option('--model <file>', 'a scoring model file (JSON: weights, authority tiers, freshness curves, thresholds) to replay with instead of the shipped one; see README "Scoring model"')
    .option('--promote', 'also write the newest good replayed run over the topic\'s latest-ingest.json and digest.md (failed or incomplete runs never replace them; exit 1 when none is good)')
    .action(async (options: { tenant: string; topic: string; since: string; until: string; replayId?: string; promote?: boolean; model?: string }) => {
      const config = loadConfig();
      const dataRoot = path.resolve(config.SKRYA_DATA_ROOT);
      // Every check on the input runs before the broker is contacted or a file is written.
      const request = buildReplayRequest(options, dataRoot);
      const model = options.model === undefined ? DEFAULT_SCORING_MODEL : loadScoringModel(options.model);
      // The scorer's worker threads, as many as the live scorer takes (SKRYA_SCORER_WORKERS), started
      // first: they load their modules while the broker is contacted.
      const scorePool = config.SKRYA_SCORER_WORKERS === 0 ? undefined : createScorePool(config.SKRYA_SCORER_WORKERS, { model });
      const progress = createProgressReporter(process.stdout);
      let summary: ReplaySummary;
      try {
        const pipeline = await connectPipeline({ config, clientId: 'skrya-replay' });
        summary = await replayTopic(
          {
            dataRoot,
            model,
            scorePool,
            serde: pipeline.port.serde,
            logger: pipeline.logger.child({ command: 'replay' }),
            runTimeoutMs: config.SKRYA_RUN_TIMEOUT_MS,
            readRawResults: (range, keep, onRecord, onProgress) => pipeline.port.readTimeRange('raw-results', { ...range, keep, onRecord, onProgress, purpose: 'replay' }),
          },
          request,
          progress.update,
        );
      } finally {
        progress.stop();
        await scorePool?.close();
      }
      if (process.stdout.isTTY) process.stdout.write(`${summaryLines(summary).join('\n')}\n`);
      else process.stdout.write(`${JSON.stringify({ phase: 'done', dir: summary.dir, promoted: summary.promoted, not_promoted: summary.notPromoted, replay_id: summary.report.replay_id, model: summary.report.model, inputs: { read: summary.report.inputs.read, rejected: summary.report.inputs.rejected.length }, totals: summary.report.totals })}\n`);
      if (summary.notPromoted !== null) {
        // The replay is written; the promotion asked for did not happen: a failed operation.
        process.stderr.write(`skrya: not promoted: ${summary.notPromoted}\n`);
        process.exitCode = 1;
      }
    });
}
