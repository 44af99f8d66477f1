import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { stackSettings, stackUp } from '../../infra/local-stack.ts';
import { loadConfig } from '../../runtime/config.ts';
import { ingestDir, sourcesFile, topicDir } from '../../runtime/data-paths.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { topicKey } from '../../runtime/ids.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import { createPublisher } from '../../runtime/runner.ts';
import { buildRetrievalRequest } from '../../services/monitor/build-request.ts';
import { loadSourcesFile } from '../../services/monitor/sources-file.ts';
import { CONSUMER_SERVICES } from '../../services/service-names.ts';
import { runStages } from '../../services/run-services.ts';
import { LATEST_FILE } from '../../services/sink/batch-sink.ts';
import { copyTopicFolder } from './topic.ts';

const SAMPLE_TOPIC = fileURLToPath(new URL('../../examples/ai-browser', import.meta.url));
const TENANT = 'demo';
const TOPIC = 'ai-browser';

interface LatestDocument {
  run_id: string;
  items: Array<{ title: string; score: number | null; verdict: string; sources: Array<{ provider: string }>; url: string | null }>;
  stats: { raw_items: number; accepted: number; downweighted: number; quarantined: number; dropped: number; merged_duplicates: number; providers: Array<{ provider: string; capability: string; status: string; message: string | null }> };
}

async function waitForRun(file: string, runId: string, timeoutMs: number): Promise<LatestDocument> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const document = JSON.parse(fs.readFileSync(file, 'utf8')) as LatestDocument & { last_attempt?: { run_id: string; status: string; reason: string } | null };
      if (document.run_id === runId) return document;
      // The run failed or was incomplete: latest-ingest.json kept the last good run and names it.
      if (document.last_attempt?.run_id === runId) {
        throw new SkryaError('PROVIDER_UNAVAILABLE', `the run ${runId} is ${document.last_attempt.status}: ${document.last_attempt.reason}; ${file} still holds the last good run, ${document.run_id}`);
      }
    } catch (error) {
      if (error instanceof SkryaError) throw error;
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new SkryaError('RUN_TIMEOUT', `the run ${runId} did not reach ${file} within ${timeoutMs / 1000} s; see the service logs above`);
}

function summary(file: string, document: LatestDocument): string {
  const lines = [`latest-ingest.json: ${file}`, '', 'Ranked items:'];
  document.items.slice(0, 10).forEach((item, index) => {
    const score = item.score === null ? '  -  ' : item.score.toFixed(3);
    const providers = [...new Set(item.sources.map((source) => source.provider))].join(', ');
    lines.push(`${String(index + 1).padStart(2)}. ${score}  ${item.title}  [${providers}]${item.verdict === 'accepted' ? '' : ` (${item.verdict})`}`);
  });
  if (document.items.length > 10) lines.push(`    … ${document.items.length - 10} more in the file`);
  const { stats } = document;
  lines.push('', `Results: ${stats.raw_items} raw, ${stats.accepted} accepted, ${stats.downweighted} downweighted, ${stats.quarantined} quarantined, ${stats.dropped} dropped, ${stats.merged_duplicates} duplicates merged.`);
  for (const provider of stats.providers.filter((entry) => entry.status !== 'ok')) {
    lines.push(`Channel ${provider.capability} (${provider.provider}): ${provider.message ?? provider.status}`);
  }
  return `${lines.join('\n')}\n`;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .option('--timeout <seconds>', 'how long to wait for the run', '180')
    .action(async (options: { timeout: string }) => {
      const config = loadConfig();
      const say = (line: string) => process.stderr.write(`skrya demo: ${line}\n`);
      const settings = stackSettings(config);
      if (config.SKRYA_KAFKA_BROKERS === `127.0.0.1:${settings.kafkaPort}`) {
        say('starting the local Kafka broker and schema registry (first run downloads them from Maven Central)');
        await stackUp(settings, say);
      }

      copyTopicFolder(SAMPLE_TOPIC, topicDir(config.SKRYA_DATA_ROOT, TENANT, TOPIC));
      say(`sample topic ready: ${sourcesFile(config.SKRYA_DATA_ROOT, TENANT, TOPIC)}`);

      const pipeline = await connectPipeline({ config, clientId: 'skrya-demo' });
      const stages = await runStages(pipeline, CONSUMER_SERVICES);
      try {
        const topic = loadSourcesFile(sourcesFile(config.SKRYA_DATA_ROOT, TENANT, TOPIC));
        const request = buildRetrievalRequest({ tenant: TENANT, topicId: TOPIC, topic, now: new Date(), trigger: 'CLI' });
        const publisher = await createPublisher({ kafka: pipeline.kafka, serde: pipeline.serde, naming: pipeline.naming, stage: 'demo' });
        await publisher.publish('retrieval-requests', topicKey({ tenant: TENANT, topicId: TOPIC }), request);
        await publisher.close();
        say(`run ${request.run_id} requested; waiting for the services`);
        const file = path.resolve(ingestDir(config.SKRYA_DATA_ROOT, TENANT, TOPIC), LATEST_FILE);
        const document = await Promise.race([
          waitForRun(file, request.run_id, Number(options.timeout) * 1000),
          stages.crashed.then(({ service, error }) => {
            throw new SkryaError('SERVICE_CRASHED', `the ${service} service crashed: ${error.message}`, { cause: error });
          }),
        ]);
        process.stdout.write(summary(file, document));
      } finally {
        await stages.stop();
      }
      say('done; the local stack keeps running (stop it with: npx skrya stack down)');
    });
}
