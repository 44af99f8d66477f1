import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { sourcesFile, topicDir } from '../../runtime/data-paths.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { DEFAULT_TENANT, parseTenantId, parseTopicId, topicKey, type TenantId } from '../../runtime/ids.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import type { TopicConfig } from '../../schemas/messages.ts';
import { formatProblem, lintSourcesText, loadSourcesFile, readTopicConfig, toTopicConfig } from '../../services/monitor/index.ts';

/** A topic a user can start from: one runtime-retrieval source, capabilities only (spec 000). */
function scaffoldSources(topicId: string): string {
  return `${JSON.stringify({
    cadence: '0 */6 * * *',
    recency_hours: 24,
    sources: [
      {
        id: `${topicId}-web`,
        name: 'Public web search',
        type: 'runtime-retrieval',
        enabled: true,
        capabilities: ['web_search', 'news_search'],
        binding: 'runtime',
        queries: [topicId.replaceAll('-', ' ')],
        languages: ['en'],
        max_items: 50,
      },
      {
        id: `${topicId}-notes`,
        name: 'Local notes',
        type: 'runtime-retrieval',
        enabled: true,
        capabilities: ['local_file'],
        paths: ['notes'],
      },
    ],
  }, null, 2)}\n`;
}

/** Copies a topic folder (sources.json, feeds, notes) into a tenant's tree, refusing links and oversize trees. */
export function copyTopicFolder(from: string, to: string): void {
  fs.cpSync(from, to, {
    recursive: true,
    filter: (source) => !fs.lstatSync(source).isSymbolicLink() && !source.endsWith('.test.ts'),
  });
}

export function registerTopicCommand(program: Command): void {
  const topic = program.command('topic');
  registerTopicConfigCommands(topic);
  topic
    .command('init <topic-id>')
    .description('scaffold <data-root>/<tenant>/topics/<topic-id>/sources.json (and a notes/ folder)')
    .option('--tenant <tenant>', 'tenant id', parseTenantId, DEFAULT_TENANT)
    .option('--from <folder>', 'copy an existing topic folder (e.g. examples/ai-browser) instead of the template')
    .option('--force', 'overwrite an existing sources.json')
    .action((topicIdText: string, options: { tenant: TenantId; from?: string; force?: boolean }) => {
      const { SKRYA_DATA_ROOT: dataRoot } = loadConfig();
      const topicId = parseTopicId(topicIdText);
      const dir = topicDir(dataRoot, options.tenant, topicId);
      const file = sourcesFile(dataRoot, options.tenant, topicId);
      if (fs.existsSync(file) && !options.force) {
        throw new SkryaError('INVALID_INPUT', `${file} already exists; pass --force to overwrite it`);
      }
      if (options.from) {
        const from = path.resolve(options.from);
        if (!fs.existsSync(path.join(from, 'sources.json'))) throw new SkryaError('INVALID_INPUT', `--from ${options.from}: no sources.json in that folder`);
        // A folder that would not load is refused before anything is copied.
        const problems = lintSourcesText(path.join(from, 'sources.json'), fs.readFileSync(path.join(from, 'sources.json'), 'utf8'));
        if (problems.length > 0) {
          throw new SkryaError('CONFIG_INVALID', `--from ${options.from}: its sources.json would not load, nothing was copied:\n${problems.map(formatProblem).join('\n')}`);
        }
        copyTopicFolder(from, dir);
      } else {
        fs.mkdirSync(path.join(dir, 'notes'), { recursive: true });
        fs.writeFileSync(file, scaffoldSources(topicId));
      }
      process.stdout.write(`${file}\n`);
    });
}

/** Writes configs or tombstones to topic-configs, where the monitors read them. */
async function writeConfigs(changes: Array<{ key: string; value: TopicConfig | null }>): Promise<void> {
  const pipeline = await connectPipeline({ clientId: 'skrya-cli' });
  const writer = await pipeline.port.compactedWriter('cli', 'topic-configs');
  try {
    await writer.write(changes);
  } finally {
    await writer.close();
  }
}

function registerTopicConfigCommands(topic: Command): void {
  topic
    .command('apply <topic-id>')
    .description("validate a topic's sources.json and publish it to topic-configs, where the monitors read it (a fleet's way to add or change a topic)")
    .option('--tenant <tenant>', 'tenant id', parseTenantId, DEFAULT_TENANT)
    .option('--file <sources.json>', 'publish this file instead of <data-root>/<tenant>/topics/<topic-id>/sources.json')
    .action(async (topicIdText: string, options: { tenant: TenantId; file?: string }) => {
      const { tenant } = options;
      const topicId = parseTopicId(topicIdText);
      const { SKRYA_DATA_ROOT: dataRoot } = loadConfig();
      const now = new Date();
      let config: TopicConfig;
      if (options.file) {
        config = toTopicConfig({ tenant, topicId, topic: loadSourcesFile(path.resolve(options.file)), now, lastRunUntil: null });
      } else {
        const read = readTopicConfig(dataRoot, tenant, topicId, now);
        if ('problem' in read) throw new SkryaError('CONFIG_INVALID', read.problem);
        config = read.config;
      }
      await writeConfigs([{ key: topicKey({ tenant, topicId }), value: config }]);
      process.stdout.write(`applied ${tenant}/${topicId} (${config.content_sha256.slice(0, 12)})\n`);
    });
  topic
    .command('delete <topic-id>')
    .description('remove a topic from the monitors: publishes its tombstone to topic-configs (files are left as they are)')
    .option('--tenant <tenant>', 'tenant id', parseTenantId, DEFAULT_TENANT)
    .action(async (topicIdText: string, options: { tenant: TenantId }) => {
      const key = topicKey({ tenant: options.tenant, topicId: parseTopicId(topicIdText) });
      await writeConfigs([{ key, value: null }]);
      process.stdout.write(`deleted ${key}\n`);
    });
}
