/**
 * Who may see what in the operator's view. On loopback with no tokens configured the view is open
 * (the operator's own machine). Bound beyond loopback, a token is required, and once any token is
 * configured every request needs one: the operator token (SKRYA_UI_TOKEN) sees the whole fleet, a
 * tenant token (SKRYA_UI_TENANT_TOKENS, `tenant=token,…`) sees only its tenant. Tokens are compared
 * in constant time, and never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { SkryaError } from '../runtime/errors.ts';
import { parseTenantId, type TenantId } from '../runtime/ids.ts';

export type Viewer = { kind: 'operator' } | { kind: 'tenant'; tenant: TenantId };

export interface AccessPolicy {
  /** False only on loopback with no token configured. */
  tokenRequired: boolean;
  /** The viewer a presented token stands for, or null when it matches none. */
  identify(token: string | null): Viewer | null;
}

/** Long enough that guessing is hopeless: 16 characters, e.g. `openssl rand -hex 16` gives 32. */
export const MIN_TOKEN_LENGTH = 16;

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

function checkToken(token: string, origin: string): string {
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new SkryaError('CONFIG_INVALID', `${origin}: a token needs at least ${MIN_TOKEN_LENGTH} characters and no spaces`);
  }
  return token;
}

/** `acme=token1,globex=token2` → tenant and token pairs; tenant ids are validated, tokens never echoed. */
export function parseTenantTokens(text: string): Array<{ tenant: TenantId; token: string }> {
  if (text.trim() === '') return [];
  return text.split(',').map((entry, index) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new SkryaError('CONFIG_INVALID', `SKRYA_UI_TENANT_TOKENS entry ${index + 1} is not tenant=token`);
    let tenant: TenantId;
    try {
      tenant = parseTenantId(entry.slice(0, at).trim());
    } catch (error) {
      throw new SkryaError('CONFIG_INVALID', `SKRYA_UI_TENANT_TOKENS entry ${index + 1}: ${(error as Error).message}`);
    }
    return { tenant, token: checkToken(entry.slice(at + 1).trim(), `SKRYA_UI_TENANT_TOKENS entry ${index + 1} (${tenant})`) };
  });
}

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

export function createAccessPolicy(options: { host: string; operatorToken: string; tenantTokens: string }): AccessPolicy {
  const known: Array<{ digest: Buffer; viewer: Viewer }> = [];
  if (options.operatorToken !== '') known.push({ digest: digest(checkToken(options.operatorToken, 'SKRYA_UI_TOKEN')), viewer: { kind: 'operator' } });
  for (const { tenant, token } of parseTenantTokens(options.tenantTokens)) known.push({ digest: digest(token), viewer: { kind: 'tenant', tenant } });
  if (!isLoopback(options.host) && known.length === 0) {
    throw new SkryaError('CONFIG_INVALID', `the UI is bound to ${options.host}, beyond loopback: set SKRYA_UI_TOKEN (and SKRYA_UI_TENANT_TOKENS for tenants) so it is not open to the network`);
  }
  return {
    tokenRequired: known.length > 0,
    identify(token) {
      if (known.length === 0) return { kind: 'operator' };
      if (token === null) return null;
      // Digests have one length, so timingSafeEqual compares every known token in full, whichever matches.
      const presented = digest(token);
      let match: Viewer | null = null;
      for (const entry of known) if (timingSafeEqual(entry.digest, presented) && match === null) match = entry.viewer;
      return match;
    },
  };
}

export function canSeeTenant(viewer: Viewer, tenant: TenantId): boolean {
  return viewer.kind === 'operator' || viewer.tenant === tenant;
}
