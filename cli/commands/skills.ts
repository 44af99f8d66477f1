import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { SkryaError, describeError } from '../../runtime/errors.ts';
import { createLogger } from '../../runtime/logger.ts';
import { createMetricsRegistry, createSkillMetrics } from '../../runtime/metrics.ts';
import { builtinSkills } from '../../domain/skills/builtin-skills.ts';
import { createSkillRegistry, type CheckOutcome, type SkillRegistry, type SkillReportEntry } from '../../domain/skills/registry.ts';
import { runSkill } from '../../domain/skills/run-skill.ts';
import type { AdapterMode } from '../../domain/skills/types.ts';

const write = (line = '') => process.stdout.write(`${line}\n`);

/** Registration itself is quiet: the report says what went wrong. `run` logs at the configured level. */
function buildRegistry(mode: AdapterMode, logLevel = 'error', maxDocumentBytes?: number): Promise<SkillRegistry> {
  return createSkillRegistry({
    ...(maxDocumentBytes === undefined ? {} : { limits: { maxDocumentBytes } }),
    skills: builtinSkills(),
    adapters: mode,
    env: process.env,
    logger: createLogger({ level: logLevel, name: 'skrya-skills' }),
    metrics: createSkillMetrics(createMetricsRegistry('cli')),
  });
}

function checkMark(outcome: CheckOutcome): string {
  return outcome.passed === true ? 'pass' : outcome.passed === false ? 'FAIL' : '-';
}

function credentialsNote(entry: SkillReportEntry): string {
  return entry.missingCredentials.length === 0 ? 'ready' : `cannot be connected automatically: ${entry.missingCredentials.join(', ')} not set`;
}

function entryOf(registry: SkillRegistry, name: string): SkillReportEntry {
  const entry = registry.report().find((candidate) => candidate.name === name);
  if (!entry) {
    const names = registry.report().map((candidate) => candidate.name).join(', ');
    throw new SkryaError('INVALID_INPUT', `no skill named ${JSON.stringify(name)}; known skills: ${names}`);
  }
  return entry;
}

function parseInputJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SkryaError('INVALID_INPUT', `--input is not valid JSON (${describeError(error)}); pass an object such as --input '{"query":"kafka 4.0"}'`);
  }
}

export function registerSkillsCommand(program: Command): void {
  const skills = program.command('skills');

  skills
    .command('list')
    .description('every skill with its version, capabilities, registration status and credentials')
    .option('--json', 'print the registry report as JSON')
    .action(async (options: { json?: boolean }) => {
      const report = (await buildRegistry('mock')).report();
      if (options.json) {
        write(JSON.stringify(report, null, 2));
        return;
      }
      for (const entry of report) {
        const status = entry.status === 'serving' ? 'serving' : `EXCLUDED (${entry.reason ?? 'unknown reason'})`;
        write(`${entry.name.padEnd(18)} ${(entry.version ?? '-').padEnd(7)} ${entry.capabilities.join(',').padEnd(24)} ${status}; ${credentialsNote(entry)}`);
      }
    });

  skills
    .command('show')
    .argument('<name>', 'skill name, e.g. brave_web_search')
    .description('the full declaration of one skill and its registration checks')
    .action(async (name: string) => {
      const registry = await buildRegistry('mock');
      const entry = entryOf(registry, name);
      write(JSON.stringify({ ...entry, declaration: registry.get(name)?.declaration ?? null }, null, 2));
    });

  skills
    .command('validate')
    .description('check every declaration (JSON Schema, closed objects) and that each executor agrees with it; exit 1 on any failure')
    .action(async () => {
      const report = (await buildRegistry('mock')).report();
      let failures = 0;
      for (const entry of report) {
        const ok = entry.checks.declaration.passed === true && entry.checks.contract.passed === true;
        if (!ok) failures += 1;
        const reason = [entry.checks.declaration, entry.checks.contract].map((check) => (check.passed === false ? check.reason : null)).find(Boolean);
        write(`${ok ? 'valid  ' : 'INVALID'} ${entry.name.padEnd(18)} declaration ${checkMark(entry.checks.declaration)}, contract ${checkMark(entry.checks.contract)}${reason ? `: ${reason}` : ''}`);
      }
      write(`${report.length - failures}/${report.length} skills valid`);
      if (failures > 0) process.exitCode = 1;
    });

  skills
    .command('test')
    .description("run every skill's smoke test on the mock adapter; exit 1 on any failure")
    .action(async () => {
      const report = (await buildRegistry('mock')).report();
      let failures = 0;
      for (const entry of report) {
        const passed = entry.status === 'serving';
        if (!passed) failures += 1;
        write(`${passed ? 'pass' : 'FAIL'} ${entry.name}${passed ? '' : `: ${entry.reason ?? 'excluded'}`}`);
      }
      write(`${report.length - failures} passed, ${failures} failed`);
      if (failures > 0) process.exitCode = 1;
    });

  skills
    .command('run')
    .argument('<name>', 'skill name, e.g. brave_web_search')
    .requiredOption('--input <json>', 'the skill input as JSON, e.g. \'{"query":"kafka 4.0"}\'')
    .option('--mock', 'replay recorded provider responses instead of calling the provider')
    .option('--local-root <dir>', 'folder local_file and feeds-from-a-path may read', process.cwd())
    .option('--tenant <id>', 'tenant recorded in the log event', 'cli')
    .option('--raw', 'print the raw provider responses in full')
    .description('call one skill and print its results (status, error code, results, raw responses)')
    .action(async (name: string, options: { input: string; mock?: boolean; localRoot: string; tenant: string; raw?: boolean }) => {
      const input = parseInputJson(options.input);
      const config = loadConfig();
      const registry = await buildRegistry(options.mock ? 'mock' : 'live', config.SKRYA_LOG_LEVEL, config.SKRYA_MAX_DOCUMENT_BYTES);
      entryOf(registry, name);
      const result = await runSkill(registry, name, input, { tenant: options.tenant, runId: `cli-${randomUUID()}`, localRoot: options.localRoot });
      write(JSON.stringify({
        status: result.status,
        ...(result.code ? { code: result.code, message: result.message } : {}),
        durationMs: result.durationMs,
        results: result.output?.results ?? [],
        raw: options.raw ? result.raw : result.raw.map(({ body, ...meta }) => ({ ...meta, bytes: Buffer.byteLength(body) })),
      }, null, 2));
      if (result.status === 'error') process.exitCode = 1;
    });
}
