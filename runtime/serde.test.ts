import { describe, expect, it } from 'vitest';
import { isRegistryUnavailable } from './serde.ts';

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
    // About the message or the schema: permanent.
    ['an unknown schema id', clientError(404, 'Schema 40403 not found'), false],
    ['an incompatible schema', clientError(409, 'Schema being registered is incompatible'), false],
    ['a bad request', clientError(400, 'Confluent_Schema_Registry - Error, status 400: Invalid schema'), false],
    ['not an error object', 'ECONNREFUSED', false],
  ])('%s → %s', (_case, error, expected) => {
    expect(isRegistryUnavailable(error)).toBe(expected);
  });
});
