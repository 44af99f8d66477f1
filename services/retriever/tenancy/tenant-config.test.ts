import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkryaError } from '../../../runtime/errors.ts';
import { resolveTenantCredentials } from './credentials.ts';
import { DEFAULT_TENANT_CONFIG, loadTenantConfig, parseTenantConfig, tenantEnvPrefix } from './tenant-config.ts';
import { parseTenantId } from '../../../runtime/ids.ts';

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-tenant-config-'));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function writeConfig(tenant: string, text: string): void {
  fs.mkdirSync(path.join(root, tenant), { recursive: true });
  fs.writeFileSync(path.join(root, tenant, 'tenant.json'), text);
}

function codeOf(work: () => unknown): string | null {
  try {
    work();
    return null;
  } catch (error) {
    return error instanceof SkryaError ? error.code : 'not a SkryaError';
  }
}

describe('parseTenantConfig', () => {
  it('fills defaults: no quotas, no credential references, 8 calls in flight', () => {
    expect(parseTenantConfig(parseTenantId('acme'), {}, 'test')).toEqual({ quotas: { requests_per_day: null, items_per_run: null }, credentials: {}, concurrency: 8 });
  });

  it('reads a full file', () => {
    const config = parseTenantConfig(parseTenantId('acme-eu'), {
      quotas: { requests_per_day: 100, items_per_run: 25 },
      credentials: { BRAVE_API_KEY: 'env:ACME_EU_BRAVE_API_KEY' },
      concurrency: 3,
    }, 'test');
    expect(config).toEqual({ quotas: { requests_per_day: 100, items_per_run: 25 }, credentials: { BRAVE_API_KEY: 'env:ACME_EU_BRAVE_API_KEY' }, concurrency: 3 });
  });

  it.each([
    ['a secret written in the file', { credentials: { BRAVE_API_KEY: 'sk-live-123' } }],
    ['a reference to an operator secret', { credentials: { BRAVE_API_KEY: 'env:AWS_SECRET_ACCESS_KEY' } }],
    ['a reference to another tenant\'s variable', { credentials: { BRAVE_API_KEY: 'env:GLOBEX_BRAVE_API_KEY' } }],
    ['a lower-case credential name', { credentials: { brave_api_key: 'env:ACME_BRAVE_API_KEY' } }],
    ['a negative quota', { quotas: { requests_per_day: -1 } }],
    ['a fractional quota', { quotas: { items_per_run: 2.5 } }],
    ['zero concurrency', { concurrency: 0 }],
    ['an unknown field', { quota: { requests_per_day: 10 } }],
  ])('refuses %s with CONFIG_INVALID', (_name, json) => {
    expect(codeOf(() => parseTenantConfig(parseTenantId('acme'), json, 'test'))).toBe('CONFIG_INVALID');
  });

  it.each([
    ['acme', 'ACME_'],
    ['acme-eu', 'ACME_EU_'],
    ['7seas', '7SEAS_'],
  ])('tenant %s may reference variables starting %s', (tenant, prefix) => {
    expect(tenantEnvPrefix(parseTenantId(tenant))).toBe(prefix);
  });
});

describe('loadTenantConfig', () => {
  it('a tenant without tenant.json gets the defaults', async () => {
    expect(await loadTenantConfig(root, parseTenantId('acme'))).toEqual(DEFAULT_TENANT_CONFIG);
  });

  it('reads the tenant\'s own file', async () => {
    writeConfig('acme', JSON.stringify({ quotas: { requests_per_day: 5 } }));
    expect((await loadTenantConfig(root, parseTenantId('acme'))).quotas.requests_per_day).toBe(5);
  });

  it.each([
    ['broken JSON', () => writeConfig('acme', '{ "quotas": '), 'CONFIG_INVALID'],
    ['a link to another tenant\'s file', () => {
      writeConfig('globex', JSON.stringify({ quotas: { requests_per_day: 1_000_000 } }));
      fs.mkdirSync(path.join(root, 'acme'));
      fs.symlinkSync(path.join(root, 'globex', 'tenant.json'), path.join(root, 'acme', 'tenant.json'));
    }, 'BLOCKED_URL'],
  ])('refuses %s', async (_name, arrange, code) => {
    arrange();
    await expect(loadTenantConfig(root, parseTenantId('acme'))).rejects.toSatisfy((error) => error instanceof SkryaError && error.code === code);
  });
});

describe('resolveTenantCredentials', () => {
  const processEnv = { BRAVE_API_KEY: 'operator-brave', ACME_BRAVE_API_KEY: 'acme-brave', SKRYA_BRAVE_BASE_URL: 'http://127.0.0.1:1' };

  it('replaces each referenced credential with the variable it names, keeping the rest of the environment', () => {
    const resolved = resolveTenantCredentials({ BRAVE_API_KEY: 'env:ACME_BRAVE_API_KEY' }, processEnv);
    expect(resolved.env.BRAVE_API_KEY).toBe('acme-brave');
    expect(resolved.env.SKRYA_BRAVE_BASE_URL).toBe('http://127.0.0.1:1');
    expect(resolved.unresolved).toEqual([]);
  });

  it('a reference to an unset variable unsets the credential instead of falling back to the operator\'s', () => {
    const resolved = resolveTenantCredentials({ BRAVE_API_KEY: 'env:ACME_MISSING_KEY' }, processEnv);
    expect(resolved.env.BRAVE_API_KEY).toBeUndefined();
    expect(resolved.unresolved).toEqual(['BRAVE_API_KEY']);
  });

  it('the fingerprint changes with the resolved value and never contains it', () => {
    const first = resolveTenantCredentials({ BRAVE_API_KEY: 'env:ACME_BRAVE_API_KEY' }, processEnv);
    const rotated = resolveTenantCredentials({ BRAVE_API_KEY: 'env:ACME_BRAVE_API_KEY' }, { ...processEnv, ACME_BRAVE_API_KEY: 'acme-brave-2' });
    expect(first.fingerprint).not.toBe(rotated.fingerprint);
    expect(first.fingerprint).not.toContain('acme-brave');
    expect(resolveTenantCredentials({}, processEnv).fingerprint).toBe('default');
  });
});
