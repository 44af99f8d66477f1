/**
 * Real HTTP to a provider API through fetch: base URL from the environment (so tests point it at a
 * local server), credentials from env vars named in the declaration, and a cap on the body size
 * that stops reading instead of buffering an oversized answer.
 */
import { SkryaError, describeError } from '../../../runtime/errors.ts';
import type { AdapterRequest } from '../types.ts';
import type { CallContext, TransportResponse } from './transport.ts';

export type FetchFunction = typeof fetch;

export interface HttpApiTransportOptions {
  env: Record<string, string | undefined>;
  fetch: FetchFunction;
  maxResponseBytes: number;
  userAgent: string;
}

type ApiRequest = Extract<AdapterRequest, { kind: 'api' }>;

export function createHttpApiTransport(options: HttpApiTransportOptions) {
  return {
    async send(request: ApiRequest, call: CallContext, signal: AbortSignal): Promise<TransportResponse> {
      const url = apiUrl(request, call, options.env);
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent, ...credentialHeaders(call, options.env) };
      if (request.json !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await options.fetch(url, {
          method: request.method,
          headers,
          body: request.json === undefined ? undefined : JSON.stringify(request.json),
          signal,
          redirect: 'error',
        });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new SkryaError('PROVIDER_UNAVAILABLE', `${call.skill}: could not reach ${url.origin} (${describeError(error)})`, { cause: error });
      }
      const body = await readCapped(response, options.maxResponseBytes, call.skill);
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name.toLowerCase()] = value;
      });
      return {
        status: response.status,
        headers: responseHeaders,
        body,
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
        url: url.toString(),
      };
    },
  };
}

function apiUrl(request: ApiRequest, call: CallContext, env: Record<string, string | undefined>): URL {
  const endpoint = call.declaration.endpoint;
  if (endpoint === null) throw new SkryaError('NOT_CONFIGURED', `${call.skill} declares no API endpoint`);
  const base = env[endpoint.base_url_env] || endpoint.base_url;
  const url = new URL(request.path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
  return url;
}

function credentialHeaders(call: CallContext, env: Record<string, string | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const credential of call.declaration.credentials) {
    const value = env[credential.env];
    if (!value) throw new SkryaError('NOT_CONFIGURED', `cannot be connected automatically: ${credential.env} is not set`, { details: { env: credential.env } });
    headers[credential.header] = `${credential.prefix}${value}`;
  }
  return headers;
}

/** Reads the body as text, giving up (and cancelling the stream) as soon as it passes the cap. */
async function readCapped(response: Response, maxBytes: number, skill: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw oversize(skill, maxBytes, declared);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw oversize(skill, maxBytes, received);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

function oversize(skill: string, maxBytes: number, seen: number): SkryaError {
  return new SkryaError('BAD_RESPONSE', `${skill}: response larger than ${maxBytes} bytes`, { details: { reason: 'oversize', maxBytes, seen } });
}
