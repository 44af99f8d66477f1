import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkryaError } from '../../../runtime/errors.ts';
import { realTenantPath } from './tenant-paths.ts';
import { parseTenantId } from '../../../runtime/ids.ts';

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-tenant-paths-'));
  fs.mkdirSync(path.join(root, 'acme', 'topics', 'own'), { recursive: true });
  fs.mkdirSync(path.join(root, 'globex', 'topics', 'secret'), { recursive: true });
  fs.writeFileSync(path.join(root, 'globex', 'tenant.json'), '{}');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function codeOf(work: Promise<unknown>): Promise<string | null> {
  try {
    await work;
    return null;
  } catch (error) {
    return error instanceof SkryaError ? error.code : 'not a SkryaError';
  }
}

describe('realTenantPath', () => {
  it('returns the real path of a file inside the tenant tree, and null for one that does not exist', async () => {
    expect(await realTenantPath(root, parseTenantId('acme'), 'topics', 'own')).toBe(fs.realpathSync(path.join(root, 'acme', 'topics', 'own')));
    expect(await realTenantPath(root, parseTenantId('acme'), 'tenant.json')).toBeNull();
    expect(await realTenantPath(root, parseTenantId('nobody'), 'tenant.json')).toBeNull();
  });

  it.each([
    ['a ../ segment after the tenant', () => realTenantPath(root, parseTenantId('acme'), '..', 'globex', 'tenant.json'), 'INVALID_ID'],
    ['a topic folder linked into another tenant', () => {
      fs.symlinkSync(path.join(root, 'globex', 'topics', 'secret'), path.join(root, 'acme', 'topics', 'stolen'));
      return realTenantPath(root, parseTenantId('acme'), 'topics', 'stolen');
    }, 'BLOCKED_URL'],
    ['a tenant.json linked to another tenant\'s', () => {
      fs.symlinkSync(path.join(root, 'globex', 'tenant.json'), path.join(root, 'acme', 'tenant.json'));
      return realTenantPath(root, parseTenantId('acme'), 'tenant.json');
    }, 'BLOCKED_URL'],
    ['a tenant folder that is a link to another tenant', () => {
      fs.symlinkSync(path.join(root, 'globex'), path.join(root, 'initech'));
      return realTenantPath(root, parseTenantId('initech'), 'tenant.json');
    }, 'BLOCKED_URL'],
  ])('refuses %s', async (_name, attempt, code) => {
    expect(await codeOf(attempt())).toBe(code);
  });

  it('follows a link that stays inside the tenant tree', async () => {
    fs.symlinkSync(path.join(root, 'acme', 'topics', 'own'), path.join(root, 'acme', 'topics', 'alias'));
    expect(await realTenantPath(root, parseTenantId('acme'), 'topics', 'alias')).toBe(fs.realpathSync(path.join(root, 'acme', 'topics', 'own')));
  });
});
