import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinSkills } from './builtin-skills.ts';
import { braveWebSearchInput, braveWebSearchSkill } from './providers/brave-web-search/skill.ts';
import { runSkill } from './run-skill.ts';
import { createTestRegistry } from './testing/test-registry.ts';
import type { SkillDefinition } from './types.ts';

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'skrya-registry-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A copy of the Brave web skill whose declaration (or fixtures) a test changes on disk. */
async function braveVariant(name: string, change: { declaration?: (json: Record<string, unknown>) => unknown; rawDeclaration?: string; recordings?: (json: Record<string, unknown>) => unknown }): Promise<SkillDefinition> {
  const folder = path.join(scratch, name);
  await cp(fileURLToPath(new URL('./providers/brave-web-search/', import.meta.url)), folder, { recursive: true });
  const declarationFile = path.join(folder, 'declaration.json');
  const declaration = JSON.parse(await readFile(declarationFile, 'utf8')) as Record<string, unknown>;
  declaration.name = name;
  await writeFile(declarationFile, change.rawDeclaration ?? JSON.stringify(change.declaration ? change.declaration(declaration) : declaration));
  if (change.recordings) {
    const recordingsFile = path.join(folder, 'fixtures', 'recordings.json');
    await writeFile(recordingsFile, JSON.stringify(change.recordings(JSON.parse(await readFile(recordingsFile, 'utf8')) as Record<string, unknown>)));
  }
  return { ...braveWebSearchSkill, declarationUrl: pathToFileURL(declarationFile), fixturesDir: pathToFileURL(`${path.join(folder, 'fixtures')}/`) };
}

const inputSchemaOf = (declaration: Record<string, unknown>) => declaration.input_schema as { properties: Record<string, unknown>; required: string[] } & Record<string, unknown>;

describe('registration checks', () => {
  it('every built-in skill passes all three checks and serves', async () => {
    const { registry } = await createTestRegistry();
    const report = registry.report();
    expect(report.map((entry) => [entry.name, entry.status, entry.reason])).toEqual(builtinSkills().map((_, index) => [report[index]?.name, 'serving', null]));
    expect(report.every((entry) => entry.checks.declaration.passed && entry.checks.contract.passed && entry.checks.smoke.passed)).toBe(true);
    expect(registry.forCapability('web_search').map((skill) => skill.declaration.name)).toEqual(['brave_web_search', 'exa_search', 'tavily_search']);
    expect(registry.forCapability('news_search').map((skill) => skill.declaration.name)).toEqual(['brave_news_search', 'tavily_search']);
    expect(registry.forCapability('local_file').map((skill) => skill.declaration.name)).toEqual(['local_file']);
    expect(registry.forCapability('social_search')).toEqual([]);
  });

  it.each([
    { name: 'not_json', check: 'declaration', change: { rawDeclaration: '{ "name": "not_json", ' } },
    { name: 'open_object', check: 'declaration', change: { declaration: (d: Record<string, unknown>) => ({ ...d, input_schema: { ...inputSchemaOf(d), additionalProperties: true } }) } },
    { name: 'typo_keyword', check: 'declaration', change: { declaration: (d: Record<string, unknown>) => ({ ...d, input_schema: { ...inputSchemaOf(d), requried: ['query'] } }) } },
    { name: 'unknown_capability', check: 'declaration', change: { declaration: (d: Record<string, unknown>) => ({ ...d, capabilities: ['telepathy'] }) } },
    { name: 'bad_example', check: 'declaration', change: { declaration: (d: Record<string, unknown>) => ({ ...d, examples: [{ input: { q: 'wrong field' } }] }) } },
    { name: 'missing_property', check: 'contract', change: { declaration: (d: Record<string, unknown>) => {
      const schema = inputSchemaOf(d);
      const { country: _dropped, ...properties } = schema.properties;
      return { ...d, input_schema: { ...schema, properties } };
    } } },
    { name: 'wrong_type', check: 'contract', change: { declaration: (d: Record<string, unknown>) => {
      const schema = inputSchemaOf(d);
      return { ...d, input_schema: { ...schema, properties: { ...schema.properties, count: { type: 'string' } } } };
    } } },
    { name: 'wrong_required', check: 'contract', change: { declaration: (d: Record<string, unknown>) => ({ ...d, input_schema: { ...inputSchemaOf(d), required: [] } }) } },
    { name: 'failing_smoke', check: 'smoke', change: { recordings: (r: Record<string, unknown>) => ({ recordings: (r.recordings as Array<Record<string, unknown>>).map((recording) => ({ ...recording, status: 500 })) }) } },
    { name: 'missing_recordings', check: 'smoke', change: { recordings: () => ({ recordings: 'none' }) } },
  ])('excludes a skill with $name ($check check) and keeps the fleet serving', async ({ name, check, change }) => {
    const broken = await braveVariant(name, change);
    const { registry } = await createTestRegistry({ skills: [broken, ...builtinSkills()] });
    const entry = registry.report()[0];
    expect(entry?.status).toBe('excluded');
    expect(entry?.checks[check as 'declaration' | 'contract' | 'smoke']).toMatchObject({ passed: false });
    expect(entry?.reason).toMatch(new RegExp(`^${check} check failed: .+`));
    expect(registry.get(name)).toBeUndefined();
    expect(registry.list()).toHaveLength(builtinSkills().length);
    const call = await runSkill(registry, entry?.name ?? name, { query: 'x' }, { tenant: 'acme', runId: 'r1' });
    expect(call.status).toBe('error');
  });

  it('excludes an executor whose zod contract drifted from its declaration', async () => {
    const drifted: SkillDefinition = { ...braveWebSearchSkill, input: braveWebSearchInput.extend({ safesearch: z.enum(['off', 'strict']) }) };
    const { registry } = await createTestRegistry({ skills: [drifted] });
    const [entry] = registry.report();
    expect(entry).toMatchObject({ name: 'brave_web_search', status: 'excluded', checks: { contract: { passed: false } } });
    expect(entry?.reason).toContain('safesearch');
  });

  it('refuses a second skill with a name already serving', async () => {
    const { registry } = await createTestRegistry({ skills: [braveWebSearchSkill, braveWebSearchSkill] });
    expect(registry.report().map((entry) => entry.status)).toEqual(['serving', 'excluded']);
  });

  it('logs why a skill was excluded', async () => {
    const broken = await braveVariant('logged_exclusion', { rawDeclaration: 'nope' });
    const { logs } = await createTestRegistry({ skills: [broken] });
    expect(logs.events().find((event) => event.event === 'skill_excluded')).toMatchObject({ check: 'declaration' });
  });
});
