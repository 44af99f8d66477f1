/**
 * Avro in the Confluent wire format (magic byte 0, 4-byte schema id, Avro body) through a real
 * schema registry, with the zod contract checked on both sides. Every failure becomes a SkryaError
 * whose code tells the runner whether to dead-letter (permanent) or retry (registry down).
 */
import { createRequire } from 'node:module';
import avro from 'avsc';
import { SchemaType, type SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { SkryaError, describeError, isSkryaError } from './errors.ts';
import type { Logger } from './logger.ts';
import { TOPICS, valueSubject, type TopicName, type TopicNaming } from '../topics/topics.ts';
import { compile, type z } from 'zod';

export const WIRE_MAGIC_BYTE = 0;
const WIRE_HEADER_BYTES = 5;
export const SUBJECT_COMPATIBILITY = 'BACKWARD_TRANSITIVE';

type ContractOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['contract']>;

export interface Serde {
  encode<T extends TopicName>(topic: T, value: ContractOf<T>): Promise<Buffer>;
  decode<T extends TopicName>(topic: T, bytes: Buffer): Promise<ContractOf<T>>;
  /**
   * What `decode(topic, await encode(topic, value))` gives, with the same checks and errors, for
   * stages in one process (a replay): the bytes are made only when they would change the value.
   */
  relay<T extends TopicName>(topic: T, value: ContractOf<T>): Promise<ContractOf<T>>;
  schemaId(topic: TopicName): number;
}

/** Registry failures that are not about the message: the registry is down or overloaded. */
export function isRegistryUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // Checked before the status: the Confluent client reports a refused or dropped connection as
  // "status 400" with the socket error in its message, which would otherwise read as a bad request.
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|fetch failed|Timeout/i.test(describeError(error))) return true;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && (status >= 500 || status === 408 || status === 429);
}

/**
 * A registry request that got no answer in time (the client's timeout, or fetch's): the registry is
 * there but slow, as under load, rather than refusing connections.
 */
function isRegistryTimeout(error: unknown): boolean {
  return (error instanceof DOMException && error.name === 'TimeoutError') || /Timeout \(\d+ms\)/.test(describeError(error));
}

/** True when `test` holds for a string or number anywhere in a message value (bytes are not looked into). */
function someLeaf(value: unknown, test: (leaf: string | number) => boolean): boolean {
  if (typeof value === 'string' || typeof value === 'number') return test(value);
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return false;
  // Loops, not some() over Object.values: the replay walks every message it relays.
  if (Array.isArray(value)) {
    for (const element of value) if (someLeaf(element, test)) return true;
    return false;
  }
  // Own keys, not for-in: avsc's decoded records inherit enumerable methods, and for-in over them
  // took 2.7 times as long (a twentieth of the collector's event loop).
  const fields = Object.keys(value);
  for (let index = 0; index < fields.length; index++) if (someLeaf((value as Record<string, unknown>)[fields[index]!], test)) return true;
  return false;
}

/**
 * How many strings avsc has read holding U+FFFD, the mark its lenient UTF-8 decoding leaves, counted
 * as each is read: a decode whose count moved is the one to check (decode). Walking each decoded
 * message for the mark was a thirtieth of the collector's event loop. The count lives on avsc's
 * reader, so a second copy of this module (a test runner's) counts with the first.
 */
const avroTap = (createRequire(import.meta.url)('avsc/lib/utils.js') as { Tap: { prototype: Record<symbol, { strings: number } | undefined> & { readString(): string | undefined } } }).Tap.prototype;
const REPLACEMENT_STRINGS = Symbol.for('skrya.avsc.replacementStrings');
const replacementStrings = avroTap[REPLACEMENT_STRINGS] ?? (() => {
  const count = { strings: 0 };
  const readString = avroTap.readString;
  avroTap.readString = function readStringCounted(this: typeof avroTap) {
    const text = readString.call(this);
    if (text !== undefined && text.includes('\uFFFD')) count.strings++;
    return text;
  };
  avroTap[REPLACEMENT_STRINGS] = count;
  return count;
})();

/**
 * A leaf the Avro bytes would not give back as it is: a string that is not well-formed UTF-16 (a
 * lone surrogate, which UTF-8 cannot hold) or a negative zero (an int field reads back 0).
 */
const changedByTheWire = (leaf: string | number) => (typeof leaf === 'string' ? !leaf.isWellFormed() : Object.is(leaf, -0));

/**
 * Every registry request gives up after this long and counts as the registry being unavailable
 * (and is retried where that is retried): without it, a registry that accepts a connection and
 * never answers holds a starting service forever, silently.
 */
export const REGISTRY_REQUEST_TIMEOUT_MS = 10_000;

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 404;
}

/**
 * Each topic's contract as zod compiles it (`z.compile`): the same checks and the same parsed copy,
 * from generated code. Checking a scored item took 4.7 µs on zod's runtime parser and 0.6 µs
 * compiled. A value the compiled check refuses goes through the runtime parser, so its issues read
 * as they always did.
 */
const compiledContracts = new Map<TopicName, z.ZodType>();

export function contractOf(topic: TopicName): z.ZodType {
  let contract = compiledContracts.get(topic);
  if (contract === undefined) {
    contract = compile(TOPICS[topic].contract as z.ZodType);
    compiledContracts.set(topic, contract);
  }
  return contract;
}

function contractIssues(error: z.ZodError): string {
  return error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

async function setSubjectCompatibility(registryUrl: string, subject: string, authHeaders: Record<string, string>): Promise<void> {
  const response = await fetch(`${registryUrl}/config/${encodeURIComponent(subject)}`, {
    method: 'PUT',
    headers: { ...authHeaders, 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: SUBJECT_COMPATIBILITY }),
    signal: AbortSignal.timeout(REGISTRY_REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) {
    throw new SkryaError('REGISTRY_UNAVAILABLE', `setting ${SUBJECT_COMPATIBILITY} on ${subject} failed: HTTP ${response.status} ${await response.text()}`);
  }
}

// The Avro body is written behind the wire header into one reused buffer, and each message is copied
// out at its size: the registry client's encode zero-filled a buffer for the body and then joined it
// to the header in a second (an eighth of a scored item's encode, two fifths of a provider response's).
let wireScratch = Buffer.allocUnsafe(64 * 1024);

/** The Confluent wire format of `value`: magic byte, schema id, Avro body, in a buffer of its size. */
function toWire(topic: TopicName, type: avro.Type, id: number, value: unknown): Buffer {
  let end: number;
  try {
    end = type.encode(value, wireScratch, WIRE_HEADER_BYTES);
    // A negative end is the bytes the buffer lacked.
    while (end < 0) {
      wireScratch = Buffer.allocUnsafe(2 * (wireScratch.length - end));
      end = type.encode(value, wireScratch, WIRE_HEADER_BYTES);
    }
  } catch (error) {
    const paths: string[] = [];
    type.isValid(value, { errorHook: (path) => paths.push(path.join('.')) });
    throw new SkryaError('SCHEMA_INVALID', `Avro encoding of a ${topic} message failed${paths.length > 0 ? ` at ${paths.join(', ')}` : ''}: ${describeError(error)}`, { cause: error });
  }
  const bytes = Buffer.allocUnsafe(end);
  wireScratch.copy(bytes, WIRE_HEADER_BYTES, WIRE_HEADER_BYTES, end);
  bytes[0] = WIRE_MAGIC_BYTE;
  bytes.writeUInt32BE(id, 1);
  return bytes;
}

type SerdeOptions = Parameters<typeof createSerde>[0];

/** Registers each topic's value schema under the subject's compatibility rule; the ids and reader types. */
async function registerSchemas(options: SerdeOptions): Promise<{ ids: Map<TopicName, number>; readers: Map<TopicName, avro.Type> }> {
  const { registry, registryUrl, naming } = options;
  const ids = new Map<TopicName, number>();
  const readers = new Map<TopicName, avro.Type>();
  for (const topic of options.topics) {
    const subject = valueSubject(naming, topic);
    const schema = JSON.stringify(TOPICS[topic].avro);
    try {
      await setSubjectCompatibility(registryUrl, subject, options.registryAuthHeaders ?? {});
      // The client checks the subject's compatibility against ours; set just above, it is not written again.
      const { id } = await registry.register({ type: SchemaType.AVRO, schema }, { subject, compatibility: SUBJECT_COMPATIBILITY as never, updateConfig: false });
      ids.set(topic, id);
      readers.set(topic, avro.Type.forSchema(TOPICS[topic].avro as avro.Schema));
    } catch (error) {
      if (error instanceof SkryaError) throw error;
      const code = isRegistryUnavailable(error) ? 'REGISTRY_UNAVAILABLE' : 'SCHEMA_INVALID';
      throw new SkryaError(code, `registering ${subject} failed: ${describeError(error)}`, { cause: error, details: { timedOut: isRegistryTimeout(error) } });
    }
  }
  return { ids, readers };
}

/**
 * How long a caller that does not wait for the registry (a one-off command) still waits for one that
 * accepted its request and answered too late: a loaded registry has taken longer than the request
 * timeout once and answered the next request; one that refuses connections is reported at once.
 */
export const SLOW_REGISTRY_WAIT_MS = 60_000;

/**
 * Runs `connect` again, with backoff, while it fails because the registry is unreachable and
 * `waitMs` is not over (SLOW_REGISTRY_WAIT_MS at least, when the registry answered too late).
 * Registering is idempotent, so repeating a request that timed out after the registry did the work
 * is safe.
 */
export async function whileRegistryUnavailable<T>(connect: () => Promise<T>, waitMs: number, logger: Logger): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await connect();
    } catch (error) {
      if (!isSkryaError(error) || error.code !== 'REGISTRY_UNAVAILABLE') throw error;
      const timedOut = error.details.timedOut === true;
      if (Date.now() - started >= (timedOut ? Math.max(waitMs, SLOW_REGISTRY_WAIT_MS) : waitMs)) throw error;
      const delayMs = Math.min(5_000, 250 * 2 ** Math.min(attempt, 5));
      logger.warn({ code: error.code, timedOut, attempt, delayMs }, timedOut ? 'the schema registry did not answer in time; trying again' : 'the schema registry cannot be reached; waiting for it');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

/**
 * Registers each topic's value schema (idempotent: the same schema keeps its id) under
 * BACKWARD_TRANSITIVE, and returns a serde bound to those ids.
 */
export async function createSerde(options: {
  registry: SchemaRegistry;
  registryUrl: string;
  /** The registry's Authorization header, when it needs one (runtime/connection.ts). */
  registryAuthHeaders?: Record<string, string>;
  naming: TopicNaming;
  topics: readonly TopicName[];
}): Promise<Serde> {
  const { registry } = options;
  const { ids, readers } = await registerSchemas(options);
  // Parsed once: a resolver per (topic, writer schema id).
  const resolvers = new Map<string, avro.Resolver | null>();
  const writers = new Map<string, avro.Type>();

  function schemaId(topic: TopicName): number {
    const id = ids.get(topic);
    if (id === undefined) throw new SkryaError('UNKNOWN_SCHEMA', `no schema registered for topic ${topic} in this serde`);
    return id;
  }

  function checked<T extends TopicName>(topic: T, value: ContractOf<T>): ContractOf<T> {
    const parsed = contractOf(topic).safeParse(value);
    if (!parsed.success) throw new SkryaError('SCHEMA_INVALID', `refusing to write an invalid ${topic} message: ${contractIssues(parsed.error)}`);
    return parsed.data as ContractOf<T>;
  }

  const encodeChecked = (topic: TopicName, value: unknown): Buffer => toWire(topic, readers.get(topic)!, schemaId(topic), value);

  const serde: Serde = {
    schemaId,

    encode: async (topic, value) => encodeChecked(topic, checked(topic, value)),

    async decode(topic, bytes) {
      if (bytes.length < WIRE_HEADER_BYTES || bytes[0] !== WIRE_MAGIC_BYTE) {
        throw new SkryaError('UNDECODABLE', `not Confluent wire format: expected magic byte 0 and a 4-byte schema id, got ${bytes.length} bytes starting ${bytes.subarray(0, 5).toString('hex') || '(empty)'}`);
      }
      const reader = readers.get(topic);
      if (!reader) throw new SkryaError('UNKNOWN_SCHEMA', `no schema registered for topic ${topic} in this serde`);
      const writerId = bytes.readUInt32BE(1);
      const resolverKey = `${topic}/${writerId}`;
      if (!resolvers.has(resolverKey)) {
        let writer: avro.Type;
        try {
          writer = (await registry.getSchema(writerId)) as unknown as avro.Type;
        } catch (error) {
          if (isNotFound(error)) throw new SkryaError('UNKNOWN_SCHEMA', `schema id ${writerId} is unknown to the registry`, { cause: error });
          if (isRegistryUnavailable(error)) throw new SkryaError('REGISTRY_UNAVAILABLE', `the registry could not be reached to decode: ${describeError(error)}`, { cause: error });
          throw new SkryaError('UNDECODABLE', `schema id ${writerId} could not be used: ${describeError(error)}`, { cause: error });
        }
        try {
          resolvers.set(resolverKey, reader.equals(writer) ? null : reader.createResolver(writer));
          writers.set(resolverKey, writer);
        } catch (error) {
          throw new SkryaError('UNDECODABLE', `schema id ${writerId} is not a ${topic} schema: ${describeError(error)}`, { cause: error });
        }
      }
      let decoded: unknown;
      const body = bytes.subarray(WIRE_HEADER_BYTES);
      const replacementsBefore = replacementStrings.strings;
      try {
        const resolver = resolvers.get(resolverKey);
        decoded = resolver ? reader.fromBuffer(body, resolver) : reader.fromBuffer(body);
      } catch (error) {
        throw new SkryaError('UNDECODABLE', `Avro decoding failed (truncated or foreign payload): ${describeError(error)}`, { cause: error });
      }
      // avsc decodes invalid UTF-8 leniently, as U+FFFD. Only then (rarely) is the body checked: if it
      // does not re-encode to the same bytes, a string was not UTF-8, and the original bytes are kept
      // in a dead letter rather than silently rewritten.
      if (replacementStrings.strings !== replacementsBefore) {
        const writer = writers.get(resolverKey)!;
        if (!writer.toBuffer(writer.fromBuffer(body)).equals(body)) throw new SkryaError('UNDECODABLE', `a string field of this ${topic} message is not valid UTF-8`);
      }
      const parsed = contractOf(topic).safeParse(decoded);
      if (!parsed.success) throw new SkryaError('SCHEMA_INVALID', `${topic} message breaks its contract: ${contractIssues(parsed.error)}`);
      return parsed.data as ContractOf<typeof topic>;
    },

    async relay(topic, value) {
      // The contract's parse is a fresh copy, as a decode is. A value the writer's type holds, with no
      // leaf the bytes would change, decodes to that copy, which passes the contract again.
      const data = checked(topic, value);
      const writer = readers.get(topic);
      if (writer?.isValid(data) && !someLeaf(data, changedByTheWire)) return data;
      return serde.decode(topic, encodeChecked(topic, data));
    },
  };
  return serde;
}
