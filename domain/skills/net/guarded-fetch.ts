/**
 * Fetches a URL someone else chose (a page to read, a feed) without letting it reach inside the
 * network: every hop is vetted by the SSRF guard, the connection is pinned to the vetted address
 * (Host header and TLS SNI keep the name), redirects are followed by hand and re-vetted,
 * robots.txt is honoured, the body is capped while streaming and one deadline covers the whole
 * fetch, so a slow-drip server cannot hold it open.
 */
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { SkryaError, describeError } from '../../../runtime/errors.ts';
import type { TransportResponse } from '../adapters/transport.ts';
import { decodeBytes } from '../../text/decode-bytes.ts';
import { createRobotsCache, type RobotsCache } from './robots.ts';
import { systemResolver, vetUrl, DEFAULT_NETWORK_POLICY, type NetworkPolicy, type Resolver, type ResolvedAddress, type VettedTarget } from './ssrf-guard.ts';

export interface GuardedFetchOptions {
  policy?: NetworkPolicy;
  resolver?: Resolver;
  robots?: RobotsCache;
  userAgent?: string;
  maxBytes?: number;
  /** One limit for everything: robots.txt, every redirect hop, headers and the whole body. */
  deadlineMs?: number;
  maxRedirects?: number;
}

export interface GuardedFetchRequest {
  accept: string;
  /** robots.txt is cached per origin per run. */
  runId: string;
  signal?: AbortSignal;
}

export interface GuardedFetcher {
  fetch(url: string, request: GuardedFetchRequest): Promise<TransportResponse>;
}

export const GUARDED_FETCH_DEFAULTS = {
  userAgent: 'SkryaBot/0.1 (+https://github.com/skrya/skrya)',
  maxBytes: 5 * 1024 * 1024,
  deadlineMs: 15_000,
  maxRedirects: 5,
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function createGuardedFetcher(options: GuardedFetchOptions = {}): GuardedFetcher {
  const policy = options.policy ?? DEFAULT_NETWORK_POLICY;
  const resolver = options.resolver ?? systemResolver;
  const robots = options.robots ?? createRobotsCache();
  const userAgent = options.userAgent ?? GUARDED_FETCH_DEFAULTS.userAgent;
  const maxBytes = options.maxBytes ?? GUARDED_FETCH_DEFAULTS.maxBytes;
  const deadlineMs = options.deadlineMs ?? GUARDED_FETCH_DEFAULTS.deadlineMs;
  const maxRedirects = options.maxRedirects ?? GUARDED_FETCH_DEFAULTS.maxRedirects;

  /** Follows redirects by hand; `runId` null = this is the robots.txt fetch itself. */
  const follow = async (startUrl: string, accept: string, runId: string | null, signal: AbortSignal): Promise<TransportResponse> => {
    let current = startUrl;
    for (let hop = 0; ; hop += 1) {
      const target = await vetUrl(current, policy, resolver);
      if (runId !== null) {
        const allowed = await robots.isAllowed(target.url, runId, (robotsUrl) => follow(robotsUrl, 'text/plain', null, signal));
        if (!allowed) {
          throw new SkryaError('BLOCKED_URL', `refused to fetch ${target.url}: robots.txt disallows it for SkryaBot`, { details: { url: target.url.toString(), reason: 'robots' } });
        }
      }
      const response = await requestOnce(target, { accept, userAgent, maxBytes, signal });
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || !location) return response;
      if (hop >= maxRedirects) {
        throw new SkryaError('BAD_RESPONSE', `more than ${maxRedirects} redirects starting at ${startUrl}`, { details: { reason: 'too-many-redirects', url: startUrl } });
      }
      current = new URL(location, target.url).toString();
    }
  };

  return {
    async fetch(url, request) {
      const deadline = AbortSignal.timeout(deadlineMs);
      const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
      try {
        return await follow(url, request.accept, request.runId, signal);
      } catch (error) {
        if (deadline.aborted) {
          throw new SkryaError('ADAPTER_TIMEOUT', `fetching ${url} took longer than ${deadlineMs} ms`, { cause: error, details: { url, deadlineMs } });
        }
        throw error;
      }
    },
  };
}

/** Makes the socket connect to the vetted address whatever the name resolves to now. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) {
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
}

interface RequestSettings {
  accept: string;
  userAgent: string;
  maxBytes: number;
  signal: AbortSignal;
}

function requestOnce(target: VettedTarget, settings: RequestSettings): Promise<TransportResponse> {
  const { url } = target;
  return new Promise<TransportResponse>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      settings.signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request({
      protocol: url.protocol,
      hostname: target.hostname,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { host: url.host, 'user-agent': settings.userAgent, accept: settings.accept, 'accept-encoding': 'gzip, deflate, br' },
      lookup: pinnedLookup(target.address),
      agent: false,
      ...(url.protocol === 'https:' && !net.isIP(target.hostname) ? { servername: target.hostname } : {}),
    });
    const onAbort = () => {
      finish(() => reject(settings.signal.reason));
      request.destroy();
    };
    if (settings.signal.aborted) {
      onAbort();
      return;
    }
    settings.signal.addEventListener('abort', onAbort, { once: true });

    // Settle first: destroying the request emits its own events, which must not win the race.
    const fail = (error: SkryaError) => {
      finish(() => reject(error));
      request.destroy();
    };

    request.on('error', (error) => {
      finish(() => reject(settings.signal.aborted ? settings.signal.reason : new SkryaError('PROVIDER_UNAVAILABLE', `could not fetch ${url} (${describeError(error)})`, { cause: error })));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const headers = flattenHeaders(response.headers);
      const contentType = headers['content-type'] ?? 'application/octet-stream';
      const base = { status, headers, contentType, url: url.toString() };
      if (REDIRECT_STATUSES.has(status)) {
        response.resume();
        request.destroy();
        finish(() => resolve({ ...base, body: '' }));
        return;
      }
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > settings.maxBytes) {
        fail(oversize(url, settings.maxBytes, declared));
        return;
      }
      let body: Readable;
      try {
        body = decoded(response, headers['content-encoding']);
      } catch (error) {
        fail(new SkryaError('BAD_RESPONSE', `${url}: ${describeError(error)}`, { details: { reason: 'encoding' } }));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      body.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > settings.maxBytes) {
          fail(oversize(url, settings.maxBytes, received));
          body.destroy();
          return;
        }
        chunks.push(chunk);
      });
      body.on('error', (error) => fail(new SkryaError('BAD_RESPONSE', `${url}: body unreadable (${describeError(error)})`, { cause: error, details: { reason: 'body' } })));
      response.on('aborted', () => fail(new SkryaError('PROVIDER_UNAVAILABLE', `${url}: connection closed mid-body`)));
      body.on('end', () => {
        try {
          const text = decodeBytes(Buffer.concat(chunks), contentType).text;
          finish(() => resolve({ ...base, body: text }));
        } catch (error) {
          fail(error instanceof SkryaError ? error : new SkryaError('BAD_RESPONSE', `${url}: ${describeError(error)}`, { details: { reason: 'undecodable' } }));
        }
      });
    });
    request.end();
  });
}

function decoded(response: http.IncomingMessage, encoding: string | undefined): Readable {
  switch ((encoding ?? 'identity').trim().toLowerCase()) {
    case 'identity':
    case '':
      return response;
    case 'gzip':
    case 'x-gzip':
      return response.pipe(zlib.createGunzip());
    case 'deflate':
      return response.pipe(zlib.createInflate());
    case 'br':
      return response.pipe(zlib.createBrotliDecompress());
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Text of a fetched body: BOM, XML declaration, HTTP charset, `<meta charset>`, then detection
 * (normalize/decode-bytes.ts); bytes no charset reads are BAD_RESPONSE, never U+FFFD.
 */
export function decodeText(bytes: Uint8Array, contentType: string): string {
  return decodeBytes(bytes, contentType).text;
}

function oversize(url: URL, maxBytes: number, seen: number): SkryaError {
  return new SkryaError('BAD_RESPONSE', `${url}: body larger than ${maxBytes} bytes`, { details: { reason: 'oversize', maxBytes, seen } });
}
