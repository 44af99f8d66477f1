/**
 * A tenant's settings, `<data-root>/<tenant>/tenant.json` (format in README.md here): daily request
 * quota, items per run, provider credentials by reference, and calls in flight. A missing file
 * means the defaults (no quotas, the retriever's own credentials); a broken one is refused whole.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SkryaError, describeError } from '../../../runtime/errors.ts';
import { realTenantPath } from './tenant-paths.ts';
import type { TenantId } from '../../../runtime/ids.ts';

export const TENANT_CONFIG_FILE = 'tenant.json';
export const DEFAULT_TENANT_CONCURRENCY = 8;

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/** `env:NAME`: the value is read from the retriever's environment at call time, never stored. */
const credentialReference = z.string().regex(/^env:[A-Z][A-Z0-9_]*$/, 'a reference "env:VARIABLE_NAME"');

export const tenantConfigSchema = z.object({
  quotas: z.object({
    /** Runs a day (UTC), across every retriever instance; null = unlimited. */
    requests_per_day: z.number().int().min(0).nullable().default(null),
    /** Items a run may deliver; the run's max_items is cut to it. null = what the request asks. */
    items_per_run: z.number().int().min(1).max(10_000).nullable().default(null),
  }).strict().default({ requests_per_day: null, items_per_run: null }),
  /** Declared credential name (as in a skill declaration) → reference. */
  credentials: z.record(z.string().regex(ENV_NAME, 'a credential name in UPPER_SNAKE_CASE, as a skill declares it'), credentialReference).default({}),
  /** Provider calls in flight for this tenant in one retriever instance. */
  concurrency: z.number().int().min(1).max(256).default(DEFAULT_TENANT_CONCURRENCY),
}).strict();

export type TenantConfig = z.infer<typeof tenantConfigSchema>;

export const DEFAULT_TENANT_CONFIG: TenantConfig = tenantConfigSchema.parse({});

/**
 * The environment variables a tenant may reference start with its id in upper snake case and an
 * underscore (acme-eu → ACME_EU_): a tenant's file cannot point at the operator's own secrets
 * (AWS_SECRET_ACCESS_KEY) or at a variable named for another tenant by mistake.
 */
export function tenantEnvPrefix(tenant: TenantId): string {
  return `${tenant.toUpperCase().replaceAll('-', '_')}_`;
}

export function parseTenantConfig(tenant: TenantId, json: unknown, origin: string): TenantConfig {
  const parsed = tenantConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new SkryaError('CONFIG_INVALID', `${origin}: ${issues.join('; ')}`);
  }
  const prefix = tenantEnvPrefix(tenant);
  const foreign = Object.entries(parsed.data.credentials).filter(([, reference]) => !reference.slice('env:'.length).startsWith(prefix));
  if (foreign.length > 0) {
    throw new SkryaError('CONFIG_INVALID', `${origin}: credentials ${foreign.map(([name]) => name).join(', ')} must reference variables named ${prefix}…`);
  }
  return parsed.data;
}

export async function loadTenantConfig(dataRoot: string, tenant: TenantId): Promise<TenantConfig> {
  const file = await realTenantPath(dataRoot, tenant, TENANT_CONFIG_FILE);
  if (file === null) return DEFAULT_TENANT_CONFIG;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SkryaError('CONFIG_INVALID', `${tenant}/${TENANT_CONFIG_FILE}: not readable JSON (${describeError(error)})`, { cause: error });
  }
  return parseTenantConfig(tenant, json, `${tenant}/${TENANT_CONFIG_FILE}`);
}
