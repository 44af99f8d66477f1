import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SkryaError } from './errors.ts';
import { connectionSettings } from './connection.ts';

const port = z.coerce.number().int().min(1).max(65535);

/**
 * The one size cap for documents (feeds and pages from URLs, feed files, notes). At most 7 MiB:
 * a raw result carries the text, which legacy single-byte charsets can double in UTF-8, and the
 * stages refuse inputs over 15 MiB.
 */
export const DEFAULT_MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
export const MAX_DOCUMENT_BYTES_LIMIT = 7 * 1024 * 1024;

/** Every setting Skrya reads from the environment, with its default. The README's table mirrors this. */
export const configSchema = z.object({
  SKRYA_DATA_ROOT: z.string().min(1).default('.skrya/data'),
  SKRYA_STACK_DIR: z.string().min(1).default('.skrya/stack'),
  SKRYA_CACHE_DIR: z.string().min(1).default(path.join(os.homedir(), '.cache', 'skrya')),
  SKRYA_KAFKA_BROKERS: z.string().min(1).default('127.0.0.1:19092'),
  SKRYA_REGISTRY_URL: z.string().url().default('http://127.0.0.1:18081/apis/ccompat/v7'),
  SKRYA_KAFKA_PORT: port.default(19092),
  SKRYA_KAFKA_CONTROLLER_PORT: port.default(19093),
  SKRYA_REGISTRY_PORT: port.default(18081),
  SKRYA_REGISTRY_MANAGEMENT_PORT: port.default(18082),
  SKRYA_KAFKA_VERSION: z.string().regex(/^\d+\.\d+\.\d+$/).default('4.1.1'),
  SKRYA_APICURIO_VERSION: z.string().regex(/^\d+\.\d+\.\d+$/).default('3.3.3'),
  /** A JDK for the registry: Apicurio 3.3 is built for Java 21+. Empty = look for one. */
  SKRYA_REGISTRY_JAVA_HOME: z.string().default(''),
  /** Prefixes every Kafka topic and group name, so tests and tenants of a shared cluster stay apart. */
  SKRYA_TOPIC_PREFIX: z.string().regex(/^[a-zA-Z0-9._-]*$/).default(''),
  SKRYA_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A run whose end marker has not arrived this long after its last message is closed as incomplete. */
  SKRYA_RUN_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /**
   * How long the group waits for a silent consumer before handing its partitions to another. After a
   * kill -9 a restarted service waits this long to get its partitions back; 6 s is the broker's minimum.
   */
  SKRYA_CONSUMER_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).default(45_000),
  /**
   * Worker threads the scorer scores responses in (0 = on its event loop). By default one per core
   * beyond the first, at most four: the event loop keeps a core for Kafka and Avro.
   */
  SKRYA_SCORER_WORKERS: z.coerce.number().int().min(0).max(64).default(Math.min(4, Math.max(0, os.availableParallelism() - 1))),
  /** live = real provider HTTP; mock = the skills' recorded responses (offline demos, tests). */
  SKRYA_SKILL_ADAPTERS: z.enum(['live', 'mock']).default('live'),
  /** Retriever instances sharing the provider keys: each spaces its calls to 1/N of a key's rate. */
  SKRYA_RETRIEVER_INSTANCES: z.coerce.number().int().min(1).max(64).default(1),
  /** Size cap of a fetched or local document (feed, page, note), in bytes. */
  SKRYA_MAX_DOCUMENT_BYTES: z.coerce.number().int().min(1024).max(MAX_DOCUMENT_BYTES_LIMIT).default(DEFAULT_MAX_DOCUMENT_BYTES),
  /**
   * on: `skrya run monitor` publishes the data tree's topics to topic-configs and watches it for
   * edits and deletes (the single-machine default). off: configs come only from `skrya topic apply`
   * (a fleet, where monitors run on machines without the tree).
   */
  SKRYA_MONITOR_WATCH_DATA_ROOT: z.enum(['on', 'off']).default('on'),
  SKRYA_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** The operator view's token (`skrya ui`): sees every tenant. Required when the view is bound beyond loopback. */
  SKRYA_UI_TOKEN: z.string().default(''),
  /** Tenant tokens for the operator view, `tenant=token,…`: each sees only its tenant. */
  SKRYA_UI_TENANT_TOKENS: z.string().default(''),
  /** Where /metrics and /healthz listen: loopback by default; 0.0.0.0 in a pod, so probes reach them. */
  SKRYA_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Connection security (runtime/connection.ts checks how they combine). Every secret can be given
  // directly or as a file (`<NAME>_FILE`, as container secrets are mounted); empty = not set.
  SKRYA_KAFKA_SECURITY_PROTOCOL: z.enum(['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL']).default('PLAINTEXT'),
  /** PEM file of the CA(s) that signed the brokers' certificates; empty = the system's trusted CAs. */
  SKRYA_KAFKA_TLS_CA_FILE: z.string().default(''),
  /** PEM client certificate and private key, for brokers that authenticate clients by certificate (mTLS). */
  SKRYA_KAFKA_TLS_CERT_FILE: z.string().default(''),
  SKRYA_KAFKA_TLS_KEY_FILE: z.string().default(''),
  SKRYA_KAFKA_SASL_MECHANISM: z.enum(['', 'plain', 'scram-sha-256', 'scram-sha-512']).default(''),
  SKRYA_KAFKA_SASL_USERNAME: z.string().default(''),
  SKRYA_KAFKA_SASL_PASSWORD: z.string().default(''),
  SKRYA_KAFKA_SASL_PASSWORD_FILE: z.string().default(''),
  /** Schema registry: basic auth (username + password) or a bearer token, not both. */
  SKRYA_REGISTRY_USERNAME: z.string().default(''),
  SKRYA_REGISTRY_PASSWORD: z.string().default(''),
  SKRYA_REGISTRY_PASSWORD_FILE: z.string().default(''),
  SKRYA_REGISTRY_TOKEN: z.string().default(''),
  SKRYA_REGISTRY_TOKEN_FILE: z.string().default(''),
  /**
   * Topic layout (topics/topic-plan.ts). `local`: replication 1, min.insync.replicas 1 (one broker);
   * `cluster`: replication 3, min.insync.replicas 2 (one broker may fail without losing a write).
   */
  SKRYA_TOPIC_PROFILE: z.enum(['local', 'cluster']).default('local'),
  /** Overrides the profile's replication factor / min.insync.replicas; 0 = the profile's. */
  SKRYA_TOPIC_REPLICATION_FACTOR: z.coerce.number().int().min(0).max(32).default(0),
  SKRYA_TOPIC_MIN_INSYNC_REPLICAS: z.coerce.number().int().min(0).max(32).default(0),
  /** Partitions per topic, `raw-results=12,scored-results=12`; topics not named keep the table's count. */
  SKRYA_TOPIC_PARTITIONS: z.string().default(''),
  /**
   * The sink's store (runtime/sink-store.ts): empty = the local data tree under SKRYA_DATA_ROOT; a
   * bucket name = an S3-compatible bucket that sinks on several machines share. Credentials come
   * from the AWS SDK's chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, a pod's identity).
   */
  SKRYA_SINK_S3_BUCKET: z.string().regex(/^$|^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name').default(''),
  /** Key prefix inside the bucket, e.g. `prod/`; tenants' trees go below it. */
  SKRYA_SINK_S3_PREFIX: z.string().regex(/^([A-Za-z0-9_][A-Za-z0-9._-]*\/)*$/, "'' or segments ending in '/'").default(''),
  /** An S3-compatible server's URL (MinIO, Ceph, S3Mock); empty = AWS S3 in SKRYA_SINK_S3_REGION. */
  SKRYA_SINK_S3_ENDPOINT: z.string().refine((value) => value === '' || URL.canParse(value), 'a URL').default(''),
  SKRYA_SINK_S3_REGION: z.string().min(1).default('us-east-1'),
  /** Path-style URLs (endpoint/bucket/key), which most S3-compatible servers need; on by default with an endpoint. */
  SKRYA_SINK_S3_FORCE_PATH_STYLE: z.enum(['', 'on', 'off']).default(''),
});

export type SkryaConfig = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): SkryaConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new SkryaError('CONFIG_INVALID', `invalid environment configuration:\n${lines.join('\n')}`);
  }
  // Connection settings that do not fit together, or files that cannot be read, fail at start.
  connectionSettings(parsed.data);
  return parsed.data;
}

export function brokerList(config: SkryaConfig): string[] {
  return config.SKRYA_KAFKA_BROKERS.split(',').map((broker) => broker.trim()).filter(Boolean);
}
