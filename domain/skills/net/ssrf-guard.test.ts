import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { DEFAULT_NETWORK_POLICY, isAllowedAddress, vetUrl, type Resolver } from './ssrf-guard.ts';

const publicResolver: Resolver = async () => [{ address: '93.184.215.14', family: 4 }];

describe('isAllowedAddress (default policy)', () => {
  it.each([
    ['127.0.0.1', false, 'loopback'],
    ['127.8.8.8', false, 'loopback /8'],
    ['10.1.2.3', false, 'private'],
    ['172.16.0.1', false, 'private'],
    ['192.168.1.1', false, 'private'],
    ['169.254.169.254', false, 'link-local (cloud metadata)'],
    ['100.64.0.1', false, 'CGNAT'],
    ['0.0.0.0', false, 'unspecified'],
    ['224.0.0.251', false, 'multicast'],
    ['255.255.255.255', false, 'broadcast'],
    ['::1', false, 'IPv6 loopback'],
    ['::', false, 'IPv6 unspecified'],
    ['fe80::1', false, 'IPv6 link-local'],
    ['fd00::1', false, 'IPv6 unique-local'],
    ['ff02::1', false, 'IPv6 multicast'],
    ['::ffff:127.0.0.1', false, 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', false, 'IPv4-mapped metadata'],
    ['64:ff9b::a00:1', false, 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::', false, '6to4 of 127.0.0.1'],
    ['93.184.215.14', true, 'public IPv4'],
    ['2606:4700:4700::1111', true, 'public IPv6'],
    ['::ffff:93.184.215.14', true, 'IPv4-mapped public'],
  ])('%s → allowed=%s (%s)', (address, allowed) => {
    expect(isAllowedAddress(address, 80, DEFAULT_NETWORK_POLICY)).toBe(allowed);
  });

  it('an exception allows exactly one address and port', () => {
    const policy = { allowedPrivateTargets: [{ address: '127.0.0.1', port: 8080 }] };
    expect(isAllowedAddress('127.0.0.1', 8080, policy)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', 8080, policy)).toBe(true);
    expect(isAllowedAddress('127.0.0.1', 8081, policy)).toBe(false);
    expect(isAllowedAddress('127.0.0.2', 8080, policy)).toBe(false);
    expect(isAllowedAddress('10.0.0.1', 8080, policy)).toBe(false);
  });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return isSkryaError(error) ? error.code : `thrown: ${String(error)}`;
  }
}

describe('vetUrl', () => {
  it.each([
    ['file:///etc/passwd'],
    ['ftp://example.org/file'],
    ['gopher://example.org/'],
    ['javascript:alert(1)'],
    ['http://user:pass@example.org/'],
    ['not a url'],
    ['http://127.0.0.1/'],
    ['http://2130706433/'],
    ['http://0x7f.1/'],
    ['http://[::1]/'],
    ['http://[::ffff:7f00:1]/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://0.0.0.0:8080/'],
  ])('refuses %s with BLOCKED_URL', async (url) => {
    expect(await codeOf(vetUrl(url, DEFAULT_NETWORK_POLICY, publicResolver))).toBe('BLOCKED_URL');
  });

  it.each([
    ['a private answer', [{ address: '10.0.0.7', family: 4 as const }]],
    ['one private answer among public ones', [{ address: '93.184.215.14', family: 4 as const }, { address: '192.168.0.5', family: 4 as const }]],
    ['an IPv4-mapped loopback answer', [{ address: '::ffff:127.0.0.1', family: 6 as const }]],
    ['no answer', []],
  ])('refuses a name with %s', async (_name, answers) => {
    expect(await codeOf(vetUrl('https://intranet.example.com/', DEFAULT_NETWORK_POLICY, async () => answers))).toBe('BLOCKED_URL');
  });

  it('refuses a name that does not resolve', async () => {
    const failing: Resolver = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await codeOf(vetUrl('https://nowhere.invalid/', DEFAULT_NETWORK_POLICY, failing))).toBe('BLOCKED_URL');
  });

  it('pins the first vetted address and keeps the name for Host and SNI', async () => {
    const target = await vetUrl('https://news.example.com:8443/a?b=c', DEFAULT_NETWORK_POLICY, publicResolver);
    expect(target).toMatchObject({ hostname: 'news.example.com', port: 8443, address: { address: '93.184.215.14', family: 4 } });
  });
});
