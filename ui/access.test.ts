import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/support/error-code.ts';
import { canSeeTenant, createAccessPolicy, isLoopback, parseTenantTokens } from './access.ts';
import { parseTenantId } from '../runtime/ids.ts';

const OPERATOR = 'operator-token-0123456789';
const ACME = 'acme-token-0123456789abcdef';
const GLOBEX = 'globex-token-0123456789abcd';

describe('access policy', () => {
  it.each([['127.0.0.1', true], ['127.1.2.3', true], ['::1', true], ['localhost', true], ['0.0.0.0', false], ['192.168.1.10', false], ['::', false]])('%s is loopback: %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });

  it('is open to the operator on loopback when no token is configured', () => {
    const policy = createAccessPolicy({ host: '127.0.0.1', operatorToken: '', tenantTokens: '' });
    expect(policy.tokenRequired).toBe(false);
    expect(policy.identify(null)).toEqual({ kind: 'operator' });
  });

  it('refuses to bind beyond loopback without a token', () => {
    expect(codeOf(() => createAccessPolicy({ host: '0.0.0.0', operatorToken: '', tenantTokens: '' }))).toBe('CONFIG_INVALID');
  });

  it('requires a token once one is configured, on any address, and tells operator from tenant tokens', () => {
    const policy = createAccessPolicy({ host: '0.0.0.0', operatorToken: OPERATOR, tenantTokens: `acme=${ACME},globex=${GLOBEX}` });
    expect(policy.tokenRequired).toBe(true);
    expect(policy.identify(null)).toBeNull();
    expect(policy.identify('')).toBeNull();
    expect(policy.identify(`${OPERATOR}x`)).toBeNull();
    expect(policy.identify(OPERATOR.slice(0, -1))).toBeNull();
    expect(policy.identify(OPERATOR)).toEqual({ kind: 'operator' });
    expect(policy.identify(ACME)).toEqual({ kind: 'tenant', tenant: 'acme' });
    expect(policy.identify(GLOBEX)).toEqual({ kind: 'tenant', tenant: 'globex' });
  });

  it('lets a tenant see only its own tenant', () => {
    expect(canSeeTenant({ kind: 'tenant', tenant: parseTenantId('acme') }, parseTenantId('acme'))).toBe(true);
    expect(canSeeTenant({ kind: 'tenant', tenant: parseTenantId('acme') }, parseTenantId('globex'))).toBe(false);
    expect(canSeeTenant({ kind: 'operator' }, parseTenantId('globex'))).toBe(true);
  });

  it.each([
    ['a tenant id that is not an id', `../etc=${ACME}`],
    ['an entry without =', ACME],
    ['a short token', 'acme=short'],
    ['a token with spaces', 'acme=0123456789 abcdefgh'],
  ])('refuses %s in SKRYA_UI_TENANT_TOKENS without echoing the token', (_name, text) => {
    let message = '';
    try {
      parseTenantTokens(text);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(codeOf(() => parseTenantTokens(text))).toBe('CONFIG_INVALID');
    expect(message).not.toContain(ACME);
  });

  it('refuses a short operator token', () => {
    expect(codeOf(() => createAccessPolicy({ host: '127.0.0.1', operatorToken: 'short', tenantTokens: '' }))).toBe('CONFIG_INVALID');
  });
});
