import fs from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { listTopics, sourcesFile } from '../../runtime/data-paths.ts';
import { formatProblem, lintSourcesText } from '../../services/monitor/sources-file.ts';

export function registerSourcesCommand(program: Command): void {
  const sources = program.command('sources').description('sources.json files');
  sources
    .command('lint [files...]')
    .description('check sources.json files (default: every topic under the data root): JSON syntax, fields, capabilities, ids, and no provider names')
    .action((files: string[]) => {
      const { SKRYA_DATA_ROOT: dataRoot } = loadConfig();
      const targets = files.length > 0 ? files : listTopics(dataRoot).map(({ tenant, topicId }) => sourcesFile(dataRoot, tenant, topicId));
      let problems = 0;
      for (const file of targets) {
        let text: string;
        try {
          text = fs.readFileSync(file, 'utf8');
        } catch {
          process.stderr.write(`${file}:1:1: (file): cannot be read\n`);
          problems += 1;
          continue;
        }
        const found = lintSourcesText(file, text);
        for (const problem of found) process.stderr.write(`${formatProblem(problem)}\n`);
        problems += found.length;
      }
      process.stdout.write(`${targets.length} file(s) checked, ${problems} problem(s)\n`);
      if (problems > 0) process.exitCode = 1;
    });
}
