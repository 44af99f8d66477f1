/**
 * A tenant's tree on disk, proven after symlinks. resolveInside (runtime/ids.ts) checks paths as
 * written; a symlinked folder can still point into another tenant's tree, so every path the
 * retriever reads for a tenant is resolved to its real location and checked against the tenant's
 * real folder, which must itself be the real `<data-root>/<tenant>` (not a link to someone else's).
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { SkryaError, describeError } from '../../../runtime/errors.ts';
import { resolveInside, type TenantId } from '../../../runtime/ids.ts';

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

function escapes(tenant: TenantId, target: string): SkryaError {
  return new SkryaError('BLOCKED_URL', `${target} leaves tenant ${tenant}'s tree`, { details: { reason: 'outside-tenant', tenant, target } });
}

async function realOrNull(target: string): Promise<string | null> {
  try {
    return await realpath(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SkryaError('CONFIG_INVALID', `${target} cannot be resolved (${describeError(error)})`, { cause: error });
  }
}

/**
 * The real path of `<data-root>/<tenant>/<segments…>`, or null when it does not exist. Throws
 * BLOCKED_URL when the tenant folder is a link, or the target resolves outside the tenant's tree.
 */
export async function realTenantPath(dataRoot: string, tenant: TenantId, ...segments: string[]): Promise<string | null> {
  const lexical = resolveInside(resolveInside(dataRoot, tenant), ...segments);
  const realRoot = await realOrNull(path.resolve(dataRoot));
  if (realRoot === null) return null;
  const realTenant = await realOrNull(path.join(realRoot, tenant));
  if (realTenant === null) return null;
  if (realTenant !== path.join(realRoot, tenant)) throw escapes(tenant, path.join(dataRoot, tenant));
  const target = await realOrNull(lexical);
  if (target === null) return null;
  if (!isInside(realTenant, target)) throw escapes(tenant, lexical);
  return target;
}
