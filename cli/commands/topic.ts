import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { sourcesFile, topicDir } from '../../runtime/data-paths.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { assertId } from '../../runtime/ids.ts';
import { formatProblem, lintSourcesText } from '../../services/monitor/index.ts';

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
  topic
    .command('init <topic-id>')
    .description('scaffold <data-root>/<tenant>/topics/<topic-id>/sources.json (and a notes/ folder)')
    .option('--tenant <tenant>', 'tenant id', 'default')
    .option('--from <folder>', 'copy an existing topic folder (e.g. examples/ai-browser) instead of the template')
    .option('--force', 'overwrite an existing sources.json')
    .action((topicId: string, options: { tenant: string; from?: string; force?: boolean }) => {
      const { SKRYA_DATA_ROOT: dataRoot } = loadConfig();
      const dir = topicDir(dataRoot, assertId('tenant', options.tenant), assertId('topic', topicId));
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
