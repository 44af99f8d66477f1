import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loadConfig } from './config.ts';
import { createRegistry } from './kafka.ts';
import { PassThrough } from 'node:stream';
import { contractOf, createSerde, isRegistryUnavailable, whileRegistryUnavailable } from './serde.ts';
import { TOPICS, type TopicName } from '../topics/topics.ts';
import { deadLetterFixture, ingestBatchFixture, rawResponseFixture, rawRunEndFixture, retrievalRequestFixture, scoredItemFixture, scoredItemMessageFixture, scoredRunEndFixture } from '../test/fixtures/messages.ts';
import { SkryaError, isSkryaError } from './errors.ts';
import { createLogger } from './logger.ts';

describe('contractOf (each topic\'s contract as zod compiles it)', () => {
  const item = scoredItemMessageFixture() as Extract<ReturnType<typeof scoredItemMessageFixture>, { kind: 'ITEM' }>;
  const cases: Array<[string, TopicName, unknown]> = [
    ['a retrieval request', 'retrieval-requests', retrievalRequestFixture()],
    ['a provider response', 'raw-results', rawResponseFixture()],
    ['a raw run end', 'raw-results', rawRunEndFixture()],
    ['a scored item', 'scored-results', item],
    ['a scored run end', 'scored-results', scoredRunEndFixture()],
    ['an ingest batch', 'ingest-normalized', ingestBatchFixture()],
    ['a dead letter', 'dead-letters', deadLetterFixture()],
    ['a field of the wrong type', 'scored-results', { ...item, item: scoredItemFixture({ title: 7 as unknown as string }) }],
    ['a number out of its range', 'scored-results', { ...item, item: scoredItemFixture({ injection_score: 1.5 }) }],
    ['a content hash that is not hex', 'scored-results', { ...item, item: scoredItemFixture({ content_hash: 'not-a-hash' }) }],
    ['a verdict the contract does not know', 'scored-results', { ...item, item: scoredItemFixture({ verdict: 'MAYBE' as never }) }],
    ['a missing field', 'scored-results', { ...item, item: { ...scoredItemFixture(), sources: undefined } }],
    ['no sources', 'scored-results', { ...item, item: scoredItemFixture({ sources: [] }) }],
    ['a kind the union does not know', 'scored-results', { ...item, kind: 'OTHER' }],
    ['a field the contract does not name (dropped from the copy)', 'scored-results', { ...item, extra: 'x', item: { ...scoredItemFixture(), extra: 1 } }],
    ['an ingest batch with a broken item', 'ingest-normalized', { ...ingestBatchFixture(), items: [scoredItemFixture({ score: -1 })] }],
    ['not an object', 'raw-results', 'text'],
  ];

  it.each(cases)('gives what the runtime parser gives for %s: success, the same copy in the same key order, the same issues', (_name, topic, value) => {
    const compiled = contractOf(topic).safeParse(value);
    const runtime = (TOPICS[topic].contract as z.ZodType).safeParse(value);
    expect(compiled.success).toBe(runtime.success);
    if (runtime.success) {
      expect(compiled.data).toStrictEqual(runtime.data);
      expect(JSON.stringify(compiled.data)).toBe(JSON.stringify(runtime.data));
      expect(compiled.data).not.toBe(value);
    } else {
      expect(compiled.error?.issues).toEqual(runtime.error.issues);
    }
  });

  it('fails some of the cases: the list holds broken values, not only valid ones', () => {
    expect(cases.filter(([, topic, value]) => !contractOf(topic).safeParse(value).success).length).toBeGreaterThanOrEqual(9);
  });
});

/** What the Confluent client and fetch throw, as seen from the serde. */
function clientError(status: number | undefined, message: string): Error {
  return Object.assign(new Error(message), { name: 'ResponseError', ...(status === undefined ? {} : { status }) });
}

describe('isRegistryUnavailable', () => {
  it.each<[string, unknown, boolean]>([
    // The registry down: the client says "status 400" with the socket error in the message.
    ['a refused connection reported as status 400', clientError(400, 'Confluent_Schema_Registry - Error, status 400: connect ECONNREFUSED 127.0.0.1:28181'), true],
    ['a reset connection', clientError(400, 'Confluent_Schema_Registry - Error, status 400: read ECONNRESET'), true],
    ['fetch failing to connect', new TypeError('fetch failed'), true],
    ['a server error', clientError(503, 'Service Unavailable'), true],
    ['too many requests', clientError(429, 'Too Many Requests'), true],
    ['a request timeout', clientError(408, 'Request Timeout'), true],
    ['a request that got no answer in time', new DOMException('The operation was aborted due to timeout', 'TimeoutError'), true],
    ['the Confluent client giving up waiting', clientError(400, 'Confluent_Schema_Registry - Error, status 400: Timeout (10000ms)'), true],
    // About the message or the schema: permanent.
    ['an unknown schema id', clientError(404, 'Schema 40403 not found'), false],
    ['an incompatible schema', clientError(409, 'Schema being registered is incompatible'), false],
    ['a bad request', clientError(400, 'Confluent_Schema_Registry - Error, status 400: Invalid schema'), false],
    ['not an error object', 'ECONNREFUSED', false],
  ])('%s → %s', (_case, error, expected) => {
    expect(isRegistryUnavailable(error)).toBe(expected);
  });
});

describe('createSerde against a registry that accepts requests and never answers', () => {
  it('gives up with REGISTRY_UNAVAILABLE instead of waiting forever', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const registryUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const failure = await createSerde({ registry: createRegistry(loadConfig({ SKRYA_REGISTRY_URL: registryUrl })), registryUrl, naming: { prefix: 't.silent.' }, topics: ['raw-results'] }).catch((error: unknown) => error);
      expect(isSkryaError(failure) && failure.code).toBe('REGISTRY_UNAVAILABLE');
      expect(isSkryaError(failure) && failure.details.timedOut).toBe(true);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('whileRegistryUnavailable', () => {
  /** A connect that fails with each of `failures` in turn, then answers 'connected'; and the warnings logged. */
  function attempts(failures: Error[]) {
    const log = new PassThrough();
    const warnings: string[] = [];
    log.on('data', (line: Buffer) => warnings.push(line.toString()));
    let calls = 0;
    const connect = async () => {
      const failure = failures[calls];
      calls += 1;
      if (failure) throw failure;
      return 'connected';
    };
    return { connect, logger: createLogger({ level: 'warn', name: 'test', destination: log }), calls: () => calls, warnings };
  }

  it('tries again while the registry is unavailable and time is left, saying so each time', async () => {
    const slow = attempts([new SkryaError('REGISTRY_UNAVAILABLE', 'Timeout (10000ms)'), new SkryaError('REGISTRY_UNAVAILABLE', 'Timeout (10000ms)')]);
    await expect(whileRegistryUnavailable(slow.connect, 60_000, slow.logger)).resolves.toBe('connected');
    expect(slow.calls()).toBe(3);
    expect(slow.warnings.filter((line) => line.includes('the schema registry cannot be reached'))).toHaveLength(2);
  });

  it('fails at once on an error that is not about reaching the registry', async () => {
    const invalid = attempts([new SkryaError('SCHEMA_INVALID', 'incompatible')]);
    await expect(whileRegistryUnavailable(invalid.connect, 60_000, invalid.logger)).rejects.toMatchObject({ code: 'SCHEMA_INVALID' });
    expect(invalid.calls()).toBe(1);
  });

  it('fails at once when no wait is allowed (a one-off command) and the registry refuses connections', async () => {
    const down = attempts([new SkryaError('REGISTRY_UNAVAILABLE', 'connect ECONNREFUSED', { details: { timedOut: false } })]);
    await expect(whileRegistryUnavailable(down.connect, 0, down.logger)).rejects.toMatchObject({ code: 'REGISTRY_UNAVAILABLE' });
    expect(down.calls()).toBe(1);
  });

  it('tries again with no wait allowed when the registry answered too late, saying so', async () => {
    const late = attempts([new SkryaError('REGISTRY_UNAVAILABLE', 'Timeout (10000ms)', { details: { timedOut: true } })]);
    await expect(whileRegistryUnavailable(late.connect, 0, late.logger)).resolves.toBe('connected');
    expect(late.calls()).toBe(2);
    expect(late.warnings.filter((line) => line.includes('did not answer in time'))).toHaveLength(1);
  });
});
