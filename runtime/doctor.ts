/**
 * `skrya doctor`: can this configuration run the pipeline on its cluster? It connects the way the
 * services do and checks, in order: the brokers can be reached, their certificate is trusted, the
 * credentials are accepted, there are enough brokers for the replication factor, every topic exists
 * as planned and may be used, the consumer groups (and, on request, the transactional ids) may be
 * used, and the registry answers with a compatibility rule. Each finding has a stable code and,
 * when it is not ok, says what to change. Secrets never appear in a finding.
 */
import type { Admin } from 'kafkajs';
import type { SkryaConfig } from './config.ts';
import { brokerList } from './config.ts';
import { connectionSettings, describeConnection, registryAuthHeaders } from './connection.ts';
import { createKafka, namingFrom, readExistingTopics, type Kafka } from './kafka.ts';
import type { Logger } from './logger.ts';
import { consumerGroup, MONITOR_SHARDS, physicalTopic, shardTransactionalId, TOPIC_NAMES, type TopicName } from '../topics/topics.ts';
import { describeStep, planTopics, topicLayout } from '../topics/topic-plan.ts';

export const FINDING_CODES = [
  'OK',
  'BROKER_UNREACHABLE', 'TLS_UNTRUSTED', 'TLS_FAILED', 'PROTOCOL_MISMATCH', 'AUTH_FAILED', 'BROKER_FAILED',
  'TOO_FEW_BROKERS',
  'TOPIC_MISSING', 'TOPIC_DIFFERS', 'TOPIC_NOT_AUTHORIZED',
  'GROUP_NOT_AUTHORIZED',
  'TRANSACTIONAL_ID_NOT_PROBED', 'TRANSACTIONAL_ID_NOT_AUTHORIZED',
  'REGISTRY_UNREACHABLE', 'REGISTRY_AUTH_FAILED', 'REGISTRY_NO_COMPATIBILITY', 'REGISTRY_WEAK_COMPATIBILITY',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export interface Finding {
  check: 'connection' | 'brokers' | 'topic' | 'group' | 'transactional-id' | 'registry';
  subject: string;
  status: 'ok' | 'warn' | 'fail';
  code: FindingCode;
  detail: string;
  fix?: string;
}

/** Consumer groups the services join, and sample names of the readers' groups (same ACL prefixes). */
const SERVICE_GROUPS = ['retriever', 'scorer', 'collector', 'sink', 'sink-raw'] as const;
const READER_GROUP_SAMPLES = ['usage-reader-doctor', 'dlq-doctor'] as const;
/** The monitors' transactional ids: one per shard (runtime/shard-owners.ts). */
function monitorTransactionalIds(config: SkryaConfig): string[] {
  const naming = namingFrom(config);
  return Array.from({ length: MONITOR_SHARDS }, (_, shard) => shardTransactionalId(naming, 'monitor', shard));
}

const TLS_TRUST_CODES = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_UNTRUSTED']);

interface KafkaErrorLike {
  name?: string;
  type?: string;
  code?: string;
  message?: string;
  cause?: unknown;
  originalError?: unknown;
}

/** The error and every error it wraps (kafkajs wraps the one that counts in retry errors). */
function errorChain(error: unknown): KafkaErrorLike[] {
  const chain: KafkaErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 8) {
    const link = current as KafkaErrorLike;
    chain.push(link);
    current = link.originalError ?? link.cause;
  }
  return chain;
}

function protocolErrorType(error: unknown): string | undefined {
  return errorChain(error).find((link) => link.type)?.type;
}

/**
 * A coordinator refused for want of an ACL. kafkajs drops the broker's GROUP_AUTHORIZATION_FAILED
 * answer to FindCoordinator and reports only that no coordinator was found, so that counts too (the
 * connection was already proven, so an offsets topic that cannot be reached is the rarer cause).
 */
function coordinatorRefused(error: unknown, authorizationType: string): boolean {
  return errorChain(error).some((link) => link.type === authorizationType || link.name === 'KafkaJSGroupCoordinatorNotFound');
}

/** What went wrong connecting, said as what to change. */
export function classifyConnectionError(error: unknown, config: SkryaConfig): Finding {
  const chain = errorChain(error);
  const brokers = config.SKRYA_KAFKA_BROKERS;
  const settings = connectionSettings(config);
  const base = { check: 'connection' as const, subject: brokers, status: 'fail' as const };
  const message = chain.map((link) => link.message ?? '').join(' / ');
  if (chain.some((link) => link.name === 'KafkaJSSASLAuthenticationError')) {
    return { ...base, code: 'AUTH_FAILED', detail: `the brokers refused the credentials: ${describeConnection(settings).sasl}`, fix: 'check SKRYA_KAFKA_SASL_USERNAME and the password (SKRYA_KAFKA_SASL_PASSWORD or _FILE), and that the brokers enable SKRYA_KAFKA_SASL_MECHANISM for this user' };
  }
  const tlsCode = chain.map((link) => link.code).find((code): code is string => typeof code === 'string' && (TLS_TRUST_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('CERT_')));
  if (tlsCode && TLS_TRUST_CODES.has(tlsCode)) {
    const trusted = settings.tls?.ca ? `the CA in ${settings.tls.ca.file}` : 'the system\'s CAs';
    return { ...base, code: 'TLS_UNTRUSTED', detail: `the brokers' certificate is not signed by ${trusted} (${tlsCode})`, fix: 'set SKRYA_KAFKA_TLS_CA_FILE to the PEM file of the CA that signed the brokers\' certificates' };
  }
  if (tlsCode) {
    return { ...base, code: 'TLS_FAILED', detail: `the TLS handshake failed (${tlsCode})`, fix: tlsCode === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'connect by a host name the brokers\' certificate names (SKRYA_KAFKA_BROKERS), or have the certificate reissued with it' : 'see the detail: renew an expired certificate, or check the client certificate (SKRYA_KAFKA_TLS_CERT_FILE)' };
  }
  if (chain.some((link) => link.code === 'ECONNREFUSED' || link.code === 'ENOTFOUND' || link.code === 'EHOSTUNREACH')) {
    return { ...base, code: 'BROKER_UNREACHABLE', detail: `no broker answers at ${brokers} (${message})`, fix: 'check SKRYA_KAFKA_BROKERS (host:port of the listener for clients), and that the brokers run and the network lets you through' };
  }
  if (/closed|timeout|EPROTO|wrong version number/i.test(message)) {
    const usesTls = settings.tls !== null;
    return { ...base, code: 'PROTOCOL_MISMATCH', detail: `the broker closed or never answered the connection (${message})`, fix: `SKRYA_KAFKA_SECURITY_PROTOCOL=${settings.protocol}: ${usesTls ? 'the listener may not use TLS' : 'the listener may expect TLS (SSL or SASL_SSL)'}; use the protocol of the listener at SKRYA_KAFKA_BROKERS` };
  }
  return { ...base, code: 'BROKER_FAILED', detail: message || String(error), fix: 'see the detail' };
}

async function checkTopics(admin: Admin, config: SkryaConfig): Promise<Finding[]> {
  const naming = namingFrom(config);
  const layout = topicLayout(config);
  const visible = new Set(await admin.listTopics());
  const findings: Finding[] = [];
  const present: TopicName[] = [];
  for (const name of TOPIC_NAMES) {
    const topic = physicalTopic(naming, name);
    if (visible.has(topic)) {
      present.push(name);
      continue;
    }
    // Metadata lists only the topics one may see: ask for this one by name to learn why it is absent.
    try {
      await admin.fetchTopicMetadata({ topics: [topic] });
      present.push(name);
    } catch (error) {
      if (protocolErrorType(error) === 'TOPIC_AUTHORIZATION_FAILED') {
        findings.push({ check: 'topic', subject: topic, status: 'fail', code: 'TOPIC_NOT_AUTHORIZED', detail: `${describeConnection(connectionSettings(config)).sasl} may not use this topic`, fix: `grant the principal Describe, Read and Write on topic ${topic} (or PREFIXED '${naming.prefix}'), and Create to let \`skrya topics apply\` make it` });
      } else {
        findings.push({ check: 'topic', subject: topic, status: 'fail', code: 'TOPIC_MISSING', detail: 'does not exist', fix: 'run `skrya topics plan`, then `skrya topics apply` (services also create missing topics at start when allowed to)' });
      }
    }
  }
  const existing = await readExistingTopics(admin, present.map((name) => physicalTopic(naming, name)));
  for (const step of planTopics(layout, naming, existing, present)) {
    if (step.action === 'keep') findings.push({ check: 'topic', subject: step.topic, status: 'ok', code: 'OK', detail: `as planned (partitions ${layout.partitions[step.name]}, replication ${layout.replicationFactor}, min.insync.replicas ${layout.minInsyncReplicas})` });
    else findings.push({ check: 'topic', subject: step.topic, status: step.action === 'cannot' || step.action === 'create' ? 'fail' : 'warn', code: 'TOPIC_DIFFERS', detail: describeStep(step).replace(/^\S+\s+\S+\s*/, `${step.action}: `), fix: step.action === 'cannot' ? 'see the detail' : 'run `skrya topics apply` (partition increases need --add-partitions and a drained pipeline)' });
  }
  return findings;
}

async function checkGroups(admin: Admin, config: SkryaConfig): Promise<Finding[]> {
  const naming = namingFrom(config);
  const groups = [...SERVICE_GROUPS, ...READER_GROUP_SAMPLES].map((service) => consumerGroup(naming, service));
  const findings: Finding[] = [];
  for (const group of groups) {
    try {
      await admin.describeGroups([group]);
      findings.push({ check: 'group', subject: group, status: 'ok', code: 'OK', detail: 'may be used' });
    } catch (error) {
      if (!coordinatorRefused(error, 'GROUP_AUTHORIZATION_FAILED')) throw error;
      findings.push({ check: 'group', subject: group, status: 'fail', code: 'GROUP_NOT_AUTHORIZED', detail: 'no coordinator was given for this consumer group: the principal lacks Describe on it (or the offsets topic is down)', fix: `grant Describe and Read on groups PREFIXED '${naming.prefix}skrya-' (the services' groups and their throwaway readers)` });
    }
  }
  return findings;
}

/**
 * Asks for a producer id under each transactional id, the way the monitor starts. This fences a
 * running monitor (it stops and is restarted by its supervisor), so it is done only on request.
 */
async function probeTransactionalIds(kafka: Kafka, config: SkryaConfig): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const id of monitorTransactionalIds(config)) {
    const producer = kafka.producer({ transactionalId: id, idempotent: true, maxInFlightRequests: 1 });
    try {
      // Connecting an idempotent producer already asks for a producer id: Write on some topic is needed.
      await producer.connect();
      const transaction = await producer.transaction();
      await transaction.abort();
      findings.push({ check: 'transactional-id', subject: id, status: 'ok', code: 'OK', detail: 'may be used' });
    } catch (error) {
      if (!coordinatorRefused(error, 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED') && protocolErrorType(error) !== 'CLUSTER_AUTHORIZATION_FAILED') throw error;
      findings.push({ check: 'transactional-id', subject: id, status: 'fail', code: 'TRANSACTIONAL_ID_NOT_AUTHORIZED', detail: `the monitor could not start its transactions (${protocolErrorType(error) ?? 'no coordinator given'})`, fix: `grant Describe and Write on transactional id ${id}, and Write on the topics it produces to` });
    } finally {
      await producer.disconnect();
    }
  }
  return findings;
}

/** The registry answers, accepts the credentials, and has a compatibility rule the services rely on. */
export async function checkRegistry(config: SkryaConfig): Promise<Finding> {
  const url = config.SKRYA_REGISTRY_URL;
  const base = { check: 'registry' as const, subject: url };
  let response: Response;
  try {
    response = await fetch(`${url}/config`, { headers: { ...registryAuthHeaders(connectionSettings(config)), accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    return { ...base, status: 'fail', code: 'REGISTRY_UNREACHABLE', detail: `no answer (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message})`, fix: 'check SKRYA_REGISTRY_URL (a Confluent-compatible API, for Apicurio …/apis/ccompat/v7) and that the registry runs' };
  }
  if (response.status === 401 || response.status === 403) {
    const auth = describeConnection(connectionSettings(config)).registryAuth;
    return { ...base, status: 'fail', code: 'REGISTRY_AUTH_FAILED', detail: `HTTP ${response.status} with registry auth: ${auth}`, fix: 'set SKRYA_REGISTRY_USERNAME + SKRYA_REGISTRY_PASSWORD(_FILE), or SKRYA_REGISTRY_TOKEN(_FILE), to credentials the registry accepts for reading and registering schemas' };
  }
  if (response.status === 404) {
    return { ...base, status: 'fail', code: 'REGISTRY_NO_COMPATIBILITY', detail: 'the registry has no global compatibility rule, and the schema client fails without one', fix: `set one: curl -X PUT -H 'content-type: application/json' -d '{"compatibility":"BACKWARD"}' ${url}/config` };
  }
  if (!response.ok) return { ...base, status: 'fail', code: 'REGISTRY_UNREACHABLE', detail: `HTTP ${response.status}`, fix: 'see the registry\'s log' };
  const body = (await response.json().catch(() => ({}))) as { compatibilityLevel?: string; compatibility?: string };
  const level = body.compatibilityLevel ?? body.compatibility ?? 'unknown';
  if (level === 'NONE' || level === 'unknown') {
    return { ...base, status: 'warn', code: 'REGISTRY_WEAK_COMPATIBILITY', detail: `global compatibility ${level}`, fix: 'set BACKWARD (or stricter) globally; the services set BACKWARD_TRANSITIVE on their own subjects' };
  }
  return { ...base, status: 'ok', code: 'OK', detail: `global compatibility ${level}` };
}

export interface DoctorOptions {
  config: SkryaConfig;
  logger: Logger;
  probeTransactions: boolean;
}

export async function runDoctor(options: DoctorOptions): Promise<Finding[]> {
  const { config } = options;
  // Few retries: a diagnosis should answer within seconds, not wait out a service's patience.
  const kafka = createKafka(config, options.logger, 'skrya-doctor', { retries: 4 });
  const admin = kafka.admin();
  const findings: Finding[] = [];
  let brokers: number;
  try {
    await admin.connect();
    brokers = (await admin.describeCluster()).brokers.length;
  } catch (error) {
    findings.push(classifyConnectionError(error, config));
    await admin.disconnect().catch(() => {});
    findings.push(await checkRegistry(config));
    return findings;
  }
  try {
    const described = describeConnection(connectionSettings(config));
    findings.push({ check: 'connection', subject: brokerList(config).join(','), status: 'ok', code: 'OK', detail: `${described.protocol}, TLS: ${described.tls}, SASL: ${described.sasl}` });
    const layout = topicLayout(config);
    findings.push(brokers >= layout.replicationFactor
      ? { check: 'brokers', subject: String(brokers), status: 'ok', code: 'OK', detail: `${brokers} broker(s) for replication ${layout.replicationFactor}` }
      : { check: 'brokers', subject: String(brokers), status: 'fail', code: 'TOO_FEW_BROKERS', detail: `${brokers} broker(s) cannot hold ${layout.replicationFactor} replicas`, fix: 'add brokers, or lower SKRYA_TOPIC_REPLICATION_FACTOR (SKRYA_TOPIC_PROFILE=local for one broker)' });
    findings.push(...(await checkTopics(admin, config)));
    findings.push(...(await checkGroups(admin, config)));
    if (options.probeTransactions) findings.push(...(await probeTransactionalIds(kafka, config)));
    else {
      const ids = monitorTransactionalIds(config);
      findings.push({ check: 'transactional-id', subject: `${ids[0]} … ${ids.at(-1)}`, status: 'warn', code: 'TRANSACTIONAL_ID_NOT_PROBED', detail: 'not probed: asking for them fences a running monitor', fix: 'run `skrya doctor --probe-transactions` while the monitor is stopped, or make sure the principal has Describe and Write on them' });
    }
  } finally {
    await admin.disconnect();
  }
  findings.push(await checkRegistry(config));
  return findings;
}
