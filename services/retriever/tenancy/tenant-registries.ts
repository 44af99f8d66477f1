/**
 * One skill registry per set of resolved credentials: a tenant whose tenant.json names its own
 * credentials gets skills that send those (and report "cannot be connected automatically" when a
 * referenced variable is unset); every other tenant shares the registry built on the retriever's
 * own environment. Registries are built on first use and rebuilt when a value changes.
 */
import type { SkillRegistry } from '../../../domain/skills/registry.ts';
import { resolveTenantCredentials } from './credentials.ts';
import type { TenantConfig } from './tenant-config.ts';

export interface TenantRegistries {
  forTenant(credentials: TenantConfig['credentials']): Promise<SkillRegistry>;
}

const MAX_REGISTRIES = 256;

export function createTenantRegistries(options: {
  processEnv: Readonly<Record<string, string | undefined>>;
  /** The registry of the retriever's own environment. */
  shared: SkillRegistry;
  build: (env: Record<string, string | undefined>) => Promise<SkillRegistry>;
}): TenantRegistries {
  const built = new Map<string, Promise<SkillRegistry>>();
  return {
    forTenant(credentials) {
      const resolved = resolveTenantCredentials(credentials, options.processEnv);
      if (resolved.fingerprint === 'default') return Promise.resolve(options.shared);
      let registry = built.get(resolved.fingerprint);
      if (!registry) {
        registry = options.build(resolved.env);
        // A failed build is not remembered: the next run tries again.
        registry.catch(() => built.delete(resolved.fingerprint));
        built.set(resolved.fingerprint, registry);
        if (built.size > MAX_REGISTRIES) built.delete(built.keys().next().value!);
      }
      return registry;
    },
  };
}
