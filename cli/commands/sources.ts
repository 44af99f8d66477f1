import fs from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { listTopics, sourcesFile } from '../../runtime/data-paths.ts';
import path from 'node:path';
import { SkryaError } from '../../runtime/errors.ts';
import { formatProblem, lintSourcesText, migrateSourcesText, unifiedDiff } from '../../services/monitor/index.ts';

export function registerSourcesCommand(program: Command): void {
  const sources = program.command('sources');
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
  sources
    .command('migrate <file>')
    .description("rewrite a sources.json written for the original Skrya tool into the capability form (\"type\": \"rss\" sources become rss_feed ones); prints the diff, --write writes it")
    .option('--write', 'write the migrated file in place (atomically) instead of printing the diff')
    .action((file: string, options: { write?: boolean }) => {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new SkryaError('INVALID_INPUT', `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      const migration = migrateSourcesText(text);
      if (migration.changes.length === 0) {
        process.stdout.write(`${file}: already in the capability form, nothing to migrate\n`);
        return;
      }
      // The result must load: a migration that leaves problems says so and writes nothing.
      const problems = lintSourcesText(file, migration.text);
      if (problems.length > 0) {
        for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
        throw new SkryaError('CONFIG_INVALID', `${file}: still has ${problems.length} problem(s) after migration; fix them by hand (nothing was written)`);
      }
      if (!options.write) {
        process.stdout.write(unifiedDiff(text, migration.text, file));
        process.stderr.write(`${migration.changes.length} source(s) to migrate; run again with --write to apply\n`);
        return;
      }
      const temporary = path.join(path.dirname(file), `.${path.basename(file)}.migrate-${process.pid}`);
      fs.writeFileSync(temporary, migration.text);
      fs.renameSync(temporary, file);
      for (const change of migration.changes) process.stdout.write(`${change}\n`);
      process.stdout.write(`${file}: ${migration.changes.length} source(s) migrated\n`);
    });
}
