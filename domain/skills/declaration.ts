/**
 * A skill's declaration (spec 002, declaration layer): the machine-readable contract the registry
 * checks before the skill may serve. Loaded from the skill's declaration.json.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { SkryaError, describeError } from '../../runtime/errors.ts';
import { capabilitySchema } from '../../schemas/ingest.ts';

const envVarName = z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'an environment variable name in UPPER_SNAKE_CASE');
const jsonSchemaObject = z.record(z.string(), z.unknown());

export const skillDeclarationSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]{1,62}$/, 'lower_snake_case, 2-63 characters'),
  version: z.string().regex(/^\d+\.\d+\.\d+$/, 'semver MAJOR.MINOR.PATCH'),
  description: z.string().min(20),
  capabilities: z.array(capabilitySchema).min(1),
  input_schema: jsonSchemaObject,
  output_schema: jsonSchemaObject,
  /** What the skill may touch, e.g. "network:api.search.brave.com", "network:public-web", "fs:local-root". */
  permissions: z.array(z.string().regex(/^(network|fs):\S+$/)).min(1),
  /** The provider's documented limit per credential; the credential rate limiter spaces calls to it. */
  rate_limit: z.object({ requests: z.number().int().positive(), per_seconds: z.number().positive() }).strict(),
  /** Credentials by env-var name, and the header each one goes into. The value never enters the declaration. */
  credentials: z.array(z.object({ env: envVarName, header: z.string().min(1), prefix: z.string().default('') }).strict()),
  /** Where the provider API lives; the env var lets tests and proxies point elsewhere. */
  endpoint: z.object({ base_url: z.url(), base_url_env: envVarName }).strict().nullable(),
  /** Provider answers that mean "quota used up" rather than "slow down". */
  quota: z.object({ statuses: z.array(z.number().int()).default([]), body_markers: z.array(z.string()).default([]) }).strict().default({ statuses: [], body_markers: [] }),
  /** Provider answers that mean "the credential was refused" beyond 401/403 (Brave answers a bad token with 422). */
  auth: z.object({ statuses: z.array(z.number().int()).default([]), body_markers: z.array(z.string()).default([]) }).strict().default({ statuses: [], body_markers: [] }),
  /** The first example is the registry's smoke test on the mock adapter. */
  examples: z.array(z.object({ input: z.record(z.string(), z.unknown()) }).strict()).min(1),
}).strict();

export type SkillDeclaration = z.infer<typeof skillDeclarationSchema>;

export interface DeclarationChecker {
  /** Reads and checks a declaration file; every problem is a CONFIG_INVALID naming the file. */
  load(url: URL): Promise<SkillDeclaration>;
  check(json: unknown, origin: string): SkillDeclaration;
}

/** One ajv instance for many declarations: compiling its meta-schema once is most of the cost. */
export function createDeclarationChecker(): DeclarationChecker {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, code: { optimize: false } });

  const check = (json: unknown, origin: string): SkillDeclaration => {
    const parsed = skillDeclarationSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
      throw new SkryaError('CONFIG_INVALID', `${origin}: ${issues.join('; ')}`);
    }
    const declaration = parsed.data;
    const compiled: Partial<Record<'input_schema' | 'output_schema', ValidateFunction>> = {};
    for (const key of ['input_schema', 'output_schema'] as const) {
      const open = objectsWithoutClosedProperties(declaration[key], key);
      if (open.length > 0) {
        throw new SkryaError('CONFIG_INVALID', `${origin}: ${open.join(', ')} must set additionalProperties: false`);
      }
      try {
        compiled[key] = ajv.compile(declaration[key]);
      } catch (error) {
        throw new SkryaError('CONFIG_INVALID', `${origin}: ${key} is not a valid JSON Schema (${describeError(error)})`, { cause: error });
      }
    }
    const validateInput = compiled.input_schema;
    declaration.examples.forEach((example, index) => {
      if (validateInput && !validateInput(example.input)) {
        throw new SkryaError('CONFIG_INVALID', `${origin}: examples.${index}.input does not match input_schema (${ajv.errorsText(validateInput.errors)})`);
      }
    });
    return declaration;
  };

  return {
    check,
    async load(url) {
      const file = fileURLToPath(url);
      let json: unknown;
      try {
        json = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new SkryaError('CONFIG_INVALID', `${file}: not readable JSON (${describeError(error)})`, { cause: error });
      }
      return check(json, file);
    },
  };
}

/** Paths of object schemas that leave additionalProperties open: a declared contract must be closed. */
function objectsWithoutClosedProperties(schema: unknown, at: string): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if ((types.includes('object') || 'properties' in node) && node.additionalProperties !== false) found.push(at);
  for (const [key, child] of Object.entries(node)) {
    if (key === 'properties' && child !== null && typeof child === 'object') {
      for (const [property, sub] of Object.entries(child)) found.push(...objectsWithoutClosedProperties(sub, `${at}.properties.${property}`));
    } else if (key === 'items' || key === 'additionalProperties') {
      found.push(...objectsWithoutClosedProperties(child, `${at}.${key}`));
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(child)) {
      child.forEach((sub, index) => found.push(...objectsWithoutClosedProperties(sub, `${at}.${key}.${index}`)));
    }
  }
  return found;
}
