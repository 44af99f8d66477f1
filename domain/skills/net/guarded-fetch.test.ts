/**
 * The guarded fetcher against real local servers. The default policy refuses loopback; tests
 * that need a page server allow exactly its 127.0.0.1 port, nothing broader.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { startLocalServer, type Handler, type LocalServer } from '../testing/local-server.ts';
import { createGuardedFetcher, type GuardedFetchOptions } from './guarded-fetch.ts';
import type { NetworkPolicy, Resolver } from './ssrf-guard.ts';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Handler): Promise<LocalServer> {
  const server = await startLocalServer(handler);
  servers.push(server);
  return server;
}

const allowOnly = (server: LocalServer): NetworkPolicy => ({ allowedPrivateTargets: [{ address: '127.0.0.1', port: server.port }] });

/** Resolves test names to loopback, like a public name whose DNS points at our page server. */
const testNames: Resolver = async (hostname) => {
  if (hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`ENOTFOUND ${hostname}`);
};

type Request = Parameters<Handler>[0];
type Response = Parameters<Handler>[1];

const noRobots = (request: Request, response: Response): boolean => {
  if (request.path === '/robots.txt') {
    response.writeHead(404).end();
    return true;
  }
  return false;
};

function page(html: string, extra: (request: Request, response: Response) => boolean = () => false): Handler {
  return (request, response) => {
    if (noRobots(request, response) || extra(request, response)) return;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  };
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    if (isSkryaError(error)) return { code: error.code, details: error.details };
    return { code: `thrown: ${String(error)}`, details: {} };
  }
  return { code: 'resolved', details: {} };
}

function fetcher(options: GuardedFetchOptions) {
  return createGuardedFetcher({ resolver: testNames, deadlineMs: 2_000, ...options });
}

describe('SSRF: refused targets never receive a request', () => {
  it.each([
    { name: 'loopback by IP', url: (s: LocalServer) => `http://127.0.0.1:${s.port}/` },
    { name: 'loopback by IPv6 literal', url: (s: LocalServer) => `http://[::1]:${s.port}/` },
    { name: 'loopback as IPv4-mapped IPv6', url: (s: LocalServer) => `http://[::ffff:127.0.0.1]:${s.port}/` },
    { name: 'loopback as a decimal number', url: (s: LocalServer) => `http://2130706433:${s.port}/` },
    { name: 'localhost', url: (s: LocalServer) => `http://localhost:${s.port}/` },
    { name: 'cloud metadata', url: () => 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' },
    { name: 'file://', url: () => 'file:///etc/passwd' },
  ])('$name → BLOCKED_URL', async ({ url }) => {
    const server = await serve(page('<p>secret</p>'));
    const guarded = createGuardedFetcher({ deadlineMs: 2_000 });
    expect((await failure(guarded.fetch(url(server), { accept: 'text/html', runId: 'r1' }))).code).toBe('BLOCKED_URL');
    expect(server.requests).toHaveLength(0);
  });

  it('a name that resolves to 10.x (injected resolver) → BLOCKED_URL', async () => {
    const guarded = createGuardedFetcher({ resolver: async () => [{ address: '10.0.0.7', family: 4 }] });
    const result = await failure(guarded.fetch('https://wiki.corp.example.com/', { accept: 'text/html', runId: 'r1' }));
    expect(result).toMatchObject({ code: 'BLOCKED_URL', details: { address: '10.0.0.7', range: 'private' } });
  });

  it('a redirect to loopback is re-checked and refused', async () => {
    const inside = await serve(page('<p>internal admin</p>'));
    const outside = await serve(page('', (request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${inside.port}/admin` }).end();
      return true;
    }));
    const guarded = fetcher({ policy: allowOnly(outside) });
    expect((await failure(guarded.fetch(`http://pages.test:${outside.port}/start`, { accept: 'text/html', runId: 'r1' }))).code).toBe('BLOCKED_URL');
    expect(inside.requests).toHaveLength(0);
  });

  it('a redirect to another scheme is refused', async () => {
    const server = await serve(page('', (_request, response) => {
      response.writeHead(301, { location: 'file:///etc/shadow' }).end();
      return true;
    }));
    const guarded = fetcher({ policy: allowOnly(server) });
    expect((await failure(guarded.fetch(`http://pages.test:${server.port}/`, { accept: 'text/html', runId: 'r1' }))).code).toBe('BLOCKED_URL');
  });
});

describe('allowed fetches', () => {
  it('connects to the vetted address while keeping the name as Host', async () => {
    const server = await serve(page('<h1>hello</h1>'));
    const guarded = fetcher({ policy: allowOnly(server) });
    const response = await guarded.fetch(`http://pages.test:${server.port}/doc?x=1`, { accept: 'text/html', runId: 'r1' });
    expect(response).toMatchObject({ status: 200, body: '<h1>hello</h1>', url: `http://pages.test:${server.port}/doc?x=1` });
    const pageRequest = server.requests.find((request) => request.path === '/doc?x=1');
    expect(pageRequest?.headers.host).toBe(`pages.test:${server.port}`);
    expect(pageRequest?.headers['user-agent']).toMatch(/^SkryaBot/);
  });

  it('re-vets every connection: a name that rebinds to a private address after the first answer is refused', async () => {
    const server = await serve(page('<p>ok</p>'));
    let calls = 0;
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]);
    const guarded = fetcher({ policy: allowOnly(server), resolver: rebinding });
    // First answer vets the page URL; robots.txt is a second connection, resolved again → private → robots unreachable → disallowed.
    const result = await failure(guarded.fetch(`http://rebind.test:${server.port}/`, { accept: 'text/html', runId: 'r1' }));
    expect(result.code).toBe('BLOCKED_URL');
    expect(server.requests.filter((request) => request.path === '/')).toHaveLength(0);
  });

  it('follows up to 5 redirects and refuses the 6th', async () => {
    const server = await serve(page('<p>end</p>', (request, response) => {
      const hop = Number(/^\/hop\/(\d+)$/.exec(request.path)?.[1] ?? -1);
      if (hop < 0) return false;
      response.writeHead(302, { location: `/hop/${hop + 1}` }).end();
      return true;
    }));
    const guarded = fetcher({ policy: allowOnly(server) });
    const result = await failure(guarded.fetch(`http://pages.test:${server.port}/hop/0`, { accept: 'text/html', runId: 'r1' }));
    expect(result).toMatchObject({ code: 'BAD_RESPONSE', details: { reason: 'too-many-redirects' } });
    expect(server.requests.filter((request) => request.path.startsWith('/hop/'))).toHaveLength(6);
  });

  it('decompresses gzip and decodes the declared charset', async () => {
    const server = await serve((request, response) => {
      if (noRobots(request, response)) return;
      response.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1', 'content-encoding': 'gzip' });
      response.end(gzipSync(Buffer.from('<p>Gr\xfc\xdfe</p>', 'latin1')));
    });
    const response = await fetcher({ policy: allowOnly(server) }).fetch(`http://pages.test:${server.port}/`, { accept: 'text/html', runId: 'r1' });
    expect(response.body).toBe('<p>Grüße</p>');
  });
});

describe('robots.txt', () => {
  const robotsServer = (rules: string) => serve((request, response) => {
    if (request.path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(rules);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
  });

  it('refuses a disallowed path for SkryaBot and fetches robots.txt once per origin per run', async () => {
    const server = await robotsServer('User-agent: SkryaBot\nDisallow: /private\n\nUser-agent: *\nDisallow:\n');
    const guarded = fetcher({ policy: allowOnly(server) });
    const base = `http://pages.test:${server.port}`;
    expect(await failure(guarded.fetch(`${base}/private/report`, { accept: 'text/html', runId: 'r1' }))).toMatchObject({ code: 'BLOCKED_URL', details: { reason: 'robots' } });
    expect((await guarded.fetch(`${base}/public`, { accept: 'text/html', runId: 'r1' })).status).toBe(200);
    expect(server.requests.filter((request) => request.path === '/robots.txt')).toHaveLength(1);
    await guarded.fetch(`${base}/public`, { accept: 'text/html', runId: 'r2' });
    expect(server.requests.filter((request) => request.path === '/robots.txt')).toHaveLength(2);
  });

  it('treats an unreachable robots.txt (5xx) as disallow-all, as RFC 9309 says', async () => {
    const server = await serve((request, response) => {
      response.writeHead(request.path === '/robots.txt' ? 503 : 200).end('x');
    });
    const guarded = fetcher({ policy: allowOnly(server) });
    expect((await failure(guarded.fetch(`http://pages.test:${server.port}/`, { accept: 'text/html', runId: 'r1' }))).code).toBe('BLOCKED_URL');
  });
});

describe('size and time caps', () => {
  it('stops a 50 MB page at the cap without buffering it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const total = 50 * 1024 * 1024;
    let written = 0;
    let closedEarly = false;
    const server = await serve((request, response) => {
      if (noRobots(request, response)) return;
      response.writeHead(200, { 'content-type': 'text/html' });
      response.on('close', () => {
        closedEarly = written < total;
      });
      const pump = () => {
        while (written < total) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      pump();
    });
    const maxBytes = 1024 * 1024;
    const guarded = fetcher({ policy: allowOnly(server), maxBytes });
    const result = await failure(guarded.fetch(`http://pages.test:${server.port}/huge`, { accept: 'text/html', runId: 'r1' }));
    expect(result).toMatchObject({ code: 'BAD_RESPONSE', details: { reason: 'oversize', maxBytes } });
    expect(result.details.seen).toBeLessThanOrEqual(maxBytes + chunk.length);
    await expect.poll(() => closedEarly).toBe(true);
    expect(written).toBeLessThan(total);
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    const server = await serve((request, response) => {
      if (noRobots(request, response)) return;
      response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(10 * 1024 * 1024) });
      response.write('<p>');
    });
    const result = await failure(fetcher({ policy: allowOnly(server), maxBytes: 1024 }).fetch(`http://pages.test:${server.port}/`, { accept: 'text/html', runId: 'r1' }));
    expect(result).toMatchObject({ code: 'BAD_RESPONSE', details: { reason: 'oversize' } });
  });

  it('ends a slow-drip body at the overall deadline even though bytes keep arriving', async () => {
    const timers: NodeJS.Timeout[] = [];
    const server = await serve((request, response) => {
      if (noRobots(request, response)) return;
      response.writeHead(200, { 'content-type': 'text/html' });
      timers.push(setInterval(() => response.write('.'), 20));
    });
    const deadlineMs = 300;
    const started = Date.now();
    const result = await failure(fetcher({ policy: allowOnly(server), deadlineMs }).fetch(`http://pages.test:${server.port}/drip`, { accept: 'text/html', runId: 'r1' }));
    const elapsed = Date.now() - started;
    timers.forEach(clearInterval);
    // The drip never ends: only the overall deadline can have ended the fetch (no upper bound on a
    // loaded machine's clock).
    expect(result.code).toBe('ADAPTER_TIMEOUT');
    expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 20);
  });
});
