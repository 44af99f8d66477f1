/**
 * A tenant's provider credentials, resolved from references at call time: the environment the
 * tenant's skills see is the retriever's, with each referenced credential replaced by the value
 * of the variable it names. A reference to an unset variable leaves that credential unset, so its
 * provider reports "cannot be connected automatically" for this tenant only. Values live only in
 * this environment object; they are never logged, emitted or written.
 */
import { createHash } from 'node:crypto';
import type { TenantConfig } from './tenant-config.ts';

export interface TenantCredentials {
  env: Record<string, string | undefined>;
  /** Credential names whose referenced variable is not set. */
  unresolved: string[];
  /** Changes when a resolved value changes, without revealing it: keys a cache of per-tenant registries. */
  fingerprint: string;
}

export function resolveTenantCredentials(references: TenantConfig['credentials'], processEnv: Readonly<Record<string, string | undefined>>): TenantCredentials {
  const env: Record<string, string | undefined> = { ...processEnv };
  const unresolved: string[] = [];
  const hash = createHash('sha256');
  for (const [name, reference] of Object.entries(references).sort(([a], [b]) => a.localeCompare(b))) {
    const value = processEnv[reference.slice('env:'.length)] || undefined;
    env[name] = value;
    if (value === undefined) unresolved.push(name);
    hash.update(`${name}\u0000${reference}\u0000${value ?? ''}\u0000`);
  }
  return { env, unresolved, fingerprint: Object.keys(references).length === 0 ? 'default' : hash.digest('hex') };
}
