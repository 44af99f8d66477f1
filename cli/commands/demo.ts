import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { stackSettings, stackUp } from '../../infra/local-stack.ts';
import { loadConfig } from '../../runtime/config.ts';
import { ingestDir, LATEST_FILE, topicDir, sourcesFile } from '../../runtime/data-paths.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import { createLogger } from '../../runtime/logger.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import { buildRetrievalRequest, loadSourcesFile } from '../../services/monitor/index.ts';
import { CONSUMER_SERVICES } from '../../services/service-names.ts';
import { runStages } from '../../services/run-services.ts';
import { compactTimestamp } from '../../services/sink/index.ts';
import { copyTopicFolder } from './topic.ts';

const SAMPLE_TOPIC = fileURLToPath(new URL('../../examples/ai-browser', import.meta.url));
const TENANT = parseTenantId('demo');
const TOPIC = parseTopicId('ai-browser');

interface LatestDocument {
  run_id: string;
  items: Array<{ title: string; score: number | null; verdict: string; sources: Array<{ provider: string }>; url: string | null }>;
  stats: { raw_items: number; accepted: number; downweighted: number; quarantined: number; dropped: number; merged_duplicates: number; providers: Array<{ provider: string; capability: string; status: string; message: string | null }> };
}

async function waitForRun(file: string, runId: string, timeoutMs: number, progress: () => void): Promise<LatestDocument> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    progress();
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

      // On a terminal a person reads progress lines and the summary; the services' JSON logs go to a
      // file named here. Piped, the logs stay on stderr as JSON, for whatever reads them.
      const logFile = process.stderr.isTTY ? path.resolve(path.dirname(path.resolve(config.SKRYA_STACK_DIR)), 'logs', `demo-${new Date().toISOString().replace(/[-:.]/g, '')}.log`) : null;
      if (logFile !== null) fs.mkdirSync(path.dirname(logFile), { recursive: true });
      const logger = logFile === null ? undefined : createLogger({ level: config.SKRYA_LOG_LEVEL, destination: fs.createWriteStream(logFile) });
      if (logFile !== null) say(`service logs (JSON lines): ${logFile}`);

      const pipeline = await connectPipeline({ config, clientId: 'skrya-demo', logger });
      say(`starting the services: ${CONSUMER_SERVICES.join(', ')}`);
      const stages = await runStages(pipeline, CONSUMER_SERVICES);
      say('services ready');
      try {
        const topic = loadSourcesFile(sourcesFile(config.SKRYA_DATA_ROOT, TENANT, TOPIC));
        const request = buildRetrievalRequest({ tenant: TENANT, topicId: TOPIC, topic, now: new Date(), trigger: 'CLI' });
        const publisher = await pipeline.port.publisher('demo');
        await publisher.publish('retrieval-requests', topicKey({ tenant: TENANT, topicId: TOPIC }), request);
        await publisher.close();
        say(`run ${request.run_id} requested; waiting for the services`);
        const file = path.resolve(ingestDir(config.SKRYA_DATA_ROOT, TENANT, TOPIC), LATEST_FILE);
        const rawDir = path.resolve(ingestDir(config.SKRYA_DATA_ROOT, TENANT, TOPIC), 'raw');
        const rawPrefix = `${compactTimestamp(request.requested_at)}-`;
        let responsesSeen = 0;
        const progress = () => {
          const responses = fs.existsSync(rawDir) ? fs.readdirSync(rawDir).filter((name) => name.startsWith(rawPrefix)).length : 0;
          if (responses > responsesSeen) say(`${responses} provider response(s) retrieved; scoring, ranking and writing`);
          responsesSeen = responses;
        };
        const document = await Promise.race([
          waitForRun(file, request.run_id, Number(options.timeout) * 1000, progress),
          stages.crashed.then(({ service, error }) => {
            throw new SkryaError('SERVICE_CRASHED', `the ${service} service crashed: ${error.message}`, { cause: error });
          }),
        ]);
        process.stdout.write(summary(file, document));
      } finally {
        await stages.stop();
      }
      say('done; look at the run in a browser with: npm run skrya -- ui (then http://127.0.0.1:8470/)');
      say('the local stack keeps running (stop it with: npm run skrya -- stack down)');
    });
}
