/**
 * The registry side of `skrya doctor` and of registry auth, against a local HTTP server that wants
 * basic auth or a bearer token, as a secured Confluent-API registry does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from './config.ts';
import { checkRegistry } from './doctor.ts';
import { createRegistry } from './kafka.ts';

const GOOD_BASIC = `Basic ${Buffer.from('reg:right').toString('base64')}`;
const GOOD_BEARER = 'Bearer token-1';
let server: http.Server;
let base: string;
/** The global rule the server reports, or null for none (Apicurio without a global rule). */
let globalRule: string | null = 'BACKWARD';
const seenAuthorization: Array<string | undefined> = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seenAuthorization.push(request.headers.authorization);
    if (request.headers.authorization !== GOOD_BASIC && request.headers.authorization !== GOOD_BEARER) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error_code":401,"message":"Unauthorized"}');
      return;
    }
    if (request.url === '/apis/ccompat/v7/config' && globalRule !== null) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ compatibilityLevel: globalRule }));
      return;
    }
    if (request.url === '/apis/ccompat/v7/subjects') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('["a-value"]');
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error_code":40401}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/ccompat/v7`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function config(env: Record<string, string>) {
  return configSchema.parse({ SKRYA_REGISTRY_URL: base, ...env });
}

describe('registry checks and auth', () => {
  it('find the registry, the credentials and the global rule good', async () => {
    globalRule = 'BACKWARD';
    expect(await checkRegistry(config({ SKRYA_REGISTRY_USERNAME: 'reg', SKRYA_REGISTRY_PASSWORD: 'right' }))).toMatchObject({ status: 'ok', code: 'OK' });
    expect(await checkRegistry(config({ SKRYA_REGISTRY_TOKEN: 'token-1' }))).toMatchObject({ status: 'ok', code: 'OK' });
  });

  it('say REGISTRY_AUTH_FAILED for a wrong password or none, naming the settings and never the secret', async () => {
    const wrong = await checkRegistry(config({ SKRYA_REGISTRY_USERNAME: 'reg', SKRYA_REGISTRY_PASSWORD: 'wrong-secret' }));
    expect(wrong).toMatchObject({ status: 'fail', code: 'REGISTRY_AUTH_FAILED' });
    expect(wrong.fix).toContain('SKRYA_REGISTRY_USERNAME');
    expect(JSON.stringify(wrong)).not.toContain('wrong-secret');
    expect(await checkRegistry(config({}))).toMatchObject({ code: 'REGISTRY_AUTH_FAILED' });
  });

  it('say REGISTRY_NO_COMPATIBILITY without a global rule and warn about NONE', async () => {
    globalRule = null;
    expect(await checkRegistry(config({ SKRYA_REGISTRY_TOKEN: 'token-1' }))).toMatchObject({ status: 'fail', code: 'REGISTRY_NO_COMPATIBILITY' });
    globalRule = 'NONE';
    expect(await checkRegistry(config({ SKRYA_REGISTRY_TOKEN: 'token-1' }))).toMatchObject({ status: 'warn', code: 'REGISTRY_WEAK_COMPATIBILITY' });
    globalRule = 'BACKWARD';
  });

  it('say REGISTRY_UNREACHABLE when nothing answers', async () => {
    expect(await checkRegistry(configSchema.parse({ SKRYA_REGISTRY_URL: 'http://127.0.0.1:9/apis/ccompat/v7' }))).toMatchObject({ status: 'fail', code: 'REGISTRY_UNREACHABLE' });
  });

  it('send the bearer token on the schema client\'s own requests', async () => {
    seenAuthorization.length = 0;
    const registry = createRegistry(config({ SKRYA_REGISTRY_TOKEN: 'token-1' }));
    // Any call through the client will do: the latest schema of a subject the server does not have.
    await expect(registry.getLatestSchemaId('missing-value')).rejects.toThrow();
    expect(seenAuthorization).toContain(GOOD_BEARER);
  });
});
