import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { sourcesFile } from '../../runtime/data-paths.ts';
import { DEFAULT_TENANT, parseTenantId, parseTopicId, topicKey, type TenantId } from '../../runtime/ids.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import { buildRetrievalRequest, lastRunUntil, loadSourcesFile } from '../../services/monitor/index.ts';

export function registerRequestCommand(program: Command): void {
  program
    .command('request <topic-id>')
    .option('--tenant <tenant>', 'tenant id', parseTenantId, DEFAULT_TENANT)
    .option('--since <iso>', 'start of the time window (ISO 8601)')
    .option('--until <iso>', 'end of the time window (ISO 8601, default now)')
    .option('--dry-run', 'print the provider-neutral request JSON instead of emitting it')
    .action(async (topicIdText: string, options: { tenant: TenantId; since?: string; until?: string; dryRun?: boolean }) => {
      const topicId = parseTopicId(topicIdText);
      const config = loadConfig();
      const topic = loadSourcesFile(sourcesFile(config.SKRYA_DATA_ROOT, options.tenant, topicId));
      const request = buildRetrievalRequest({
        tenant: options.tenant,
        topicId,
        topic,
        now: new Date(),
        trigger: 'CLI',
        since: options.since,
        until: options.until,
        lastRunUntil: lastRunUntil(config.SKRYA_DATA_ROOT, options.tenant, topicId),
      });
      if (options.dryRun) {
        process.stdout.write(`${JSON.stringify(request, null, 2)}\n`);
        return;
      }
      const pipeline = await connectPipeline({ config, clientId: 'skrya-cli' });
      const publisher = await pipeline.port.publisher('cli');
      try {
        await publisher.publish('retrieval-requests', topicKey({ tenant: request.tenant, topicId: request.topic_id }), request);
      } finally {
        await publisher.close();
      }
      process.stdout.write(`${request.run_id}\n`);
    });
}
