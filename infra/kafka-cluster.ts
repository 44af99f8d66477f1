/**
 * A local multi-broker Kafka cluster (KRaft, every node broker and controller) with SASL_SSL on
 * every listener, from the same cached Maven Central jars as the single-node stack. At first setup
 * it makes a CA and certificates (openssl), random passwords for three users and the SCRAM
 * credentials, all inside the cluster's state folder:
 * - `admin`: super user, what the brokers use between themselves;
 * - `skrya`: what the services use, allowed everything on every topic, group and transactional id;
 * - `outsider`: authenticates, but has no ACL at all (what a forgotten ACL looks like).
 * Node i listens for clients on basePort + 10·(i−1), between brokers on +1 and as controller on +2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type SkryaConfig } from '../runtime/config.ts';
import { SkryaError } from '../runtime/errors.ts';
import { allowEverything, createKafka } from '../runtime/kafka.ts';
import { createLogger } from '../runtime/logger.ts';
import { INFRA_DIR, ensureKafkaArtifacts, isAlive, newKraftClusterId, portAcceptsConnections, requireCommand, waitFor, type Report } from './local-stack.ts';
import { ensureTlsMaterial, type TlsMaterial } from './tls-material.ts';

export const CLUSTER_USERS = ['admin', 'skrya', 'outsider'] as const;
export type ClusterUser = (typeof CLUSTER_USERS)[number];

export interface ClusterSettings {
  stateDir: string;
  cacheDir: string;
  kafkaVersion: string;
  brokers: number;
  basePort: number;
  /** Maximum heap of each broker JVM, e.g. '384m': several share a small machine. */
  heap: string;
}

export function clusterSettings(config: SkryaConfig, brokers: number, heap = '384m'): ClusterSettings {
  if (!Number.isInteger(brokers) || brokers < 1 || brokers > 9) throw new SkryaError('INVALID_INPUT', `--brokers takes 1 to 9, not ${brokers}`);
  return {
    stateDir: path.resolve(config.SKRYA_STACK_DIR, 'cluster'),
    cacheDir: path.resolve(config.SKRYA_CACHE_DIR),
    kafkaVersion: config.SKRYA_KAFKA_VERSION,
    brokers,
    basePort: config.SKRYA_KAFKA_PORT,
    heap,
  };
}

export interface NodePorts {
  client: number;
  internal: number;
  controller: number;
}

export function nodePorts(settings: ClusterSettings, node: number): NodePorts {
  const client = settings.basePort + 10 * (node - 1);
  return { client, internal: client + 1, controller: client + 2 };
}

export function nodeIds(settings: ClusterSettings): number[] {
  return Array.from({ length: settings.brokers }, (_unused, index) => index + 1);
}

/** The bootstrap list clients use: every node's client listener. */
export function clusterBrokers(settings: ClusterSettings): string {
  return nodeIds(settings).map((node) => `127.0.0.1:${nodePorts(settings, node).client}`).join(',');
}

function clusterError(step: string, message: string, log?: string): SkryaError {
  return new SkryaError('STACK_FAILED', `cluster ${step}: ${message}${log ? ` (see ${log})` : ''}`, { details: { step, log } });
}

// ---------- credentials and certificates (state folder, never git) ----------

function passwordFile(settings: ClusterSettings, user: ClusterUser): string {
  return path.join(settings.stateDir, 'credentials', `${user}.password`);
}

function ensureCredentials(settings: ClusterSettings): Record<ClusterUser, string> {
  fs.mkdirSync(path.join(settings.stateDir, 'credentials'), { recursive: true, mode: 0o700 });
  const passwords = {} as Record<ClusterUser, string>;
  for (const user of CLUSTER_USERS) {
    const file = passwordFile(settings, user);
    if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(18).toString('base64url'), { mode: 0o600 });
    passwords[user] = fs.readFileSync(file, 'utf8');
  }
  return passwords;
}

/** `set -a; . <file>` gives a shell the settings to use the cluster as `skrya`. */
export function clientEnvFile(settings: ClusterSettings): string {
  return path.join(settings.stateDir, 'client.env');
}

export function clusterTls(settings: ClusterSettings): TlsMaterial {
  return ensureTlsMaterial(path.join(settings.stateDir, 'tls'));
}

/** The environment a Skrya process needs to talk to this cluster as `user` (the password by file). */
export function clusterClientEnv(settings: ClusterSettings, user: ClusterUser = 'skrya', mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512' = 'scram-sha-512'): Record<string, string> {
  return {
    SKRYA_KAFKA_BROKERS: clusterBrokers(settings),
    SKRYA_KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    SKRYA_KAFKA_TLS_CA_FILE: clusterTls(settings).caCert,
    SKRYA_KAFKA_SASL_MECHANISM: mechanism,
    SKRYA_KAFKA_SASL_USERNAME: user,
    SKRYA_KAFKA_SASL_PASSWORD_FILE: passwordFile(settings, user),
    SKRYA_TOPIC_PROFILE: settings.brokers >= 3 ? 'cluster' : 'local',
  };
}

// ---------- broker configuration ----------

function jaasPlain(passwords: Record<ClusterUser, string>, asAdmin: boolean): string {
  const users = CLUSTER_USERS.map((user) => `user_${user}="${passwords[user]}"`).join(' ');
  const login = asAdmin ? `username="admin" password="${passwords.admin}" ` : '';
  return `org.apache.kafka.common.security.plain.PlainLoginModule required ${login}${users};`;
}

function serverProperties(settings: ClusterSettings, node: number, passwords: Record<ClusterUser, string>, tls: TlsMaterial, dataDir: string): string {
  const ports = nodePorts(settings, node);
  const voters = nodeIds(settings).map((id) => `${id}@127.0.0.1:${nodePorts(settings, id).controller}`).join(',');
  const replicas = Math.min(3, settings.brokers);
  const scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  return [
    'process.roles=broker,controller',
    `node.id=${node}`,
    `controller.quorum.voters=${voters}`,
    `listeners=CLIENT://127.0.0.1:${ports.client},INTERNAL://127.0.0.1:${ports.internal},CONTROLLER://127.0.0.1:${ports.controller}`,
    `advertised.listeners=CLIENT://127.0.0.1:${ports.client},INTERNAL://127.0.0.1:${ports.internal}`,
    'listener.security.protocol.map=CLIENT:SASL_SSL,INTERNAL:SASL_SSL,CONTROLLER:SASL_SSL',
    'inter.broker.listener.name=INTERNAL',
    'controller.listener.names=CONTROLLER',
    // Between brokers and toward the controllers: PLAIN as admin, inside TLS.
    'sasl.mechanism.inter.broker.protocol=PLAIN',
    'sasl.mechanism.controller.protocol=PLAIN',
    'sasl.enabled.mechanisms=PLAIN',
    `listener.name.internal.plain.sasl.jaas.config=${jaasPlain(passwords, true)}`,
    `listener.name.controller.plain.sasl.jaas.config=${jaasPlain(passwords, true)}`,
    // Clients: PLAIN and both SCRAM variants.
    'listener.name.client.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
    `listener.name.client.plain.sasl.jaas.config=${jaasPlain(passwords, false)}`,
    `listener.name.client.scram-sha-256.sasl.jaas.config=${scram}`,
    `listener.name.client.scram-sha-512.sasl.jaas.config=${scram}`,
    'ssl.keystore.type=PEM',
    `ssl.keystore.location=${tls.serverKeystore}`,
    'ssl.truststore.type=PEM',
    `ssl.truststore.location=${tls.caCert}`,
    'ssl.client.auth=none',
    'authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    'super.users=User:admin',
    `log.dirs=${dataDir}`,
    'num.partitions=3',
    `default.replication.factor=${replicas}`,
    `min.insync.replicas=${Math.max(1, replicas - 1)}`,
    `offsets.topic.replication.factor=${replicas}`,
    'offsets.topic.num.partitions=5',
    `transaction.state.log.replication.factor=${replicas}`,
    `transaction.state.log.min.isr=${Math.max(1, replicas - 1)}`,
    'transaction.state.log.num.partitions=5',
    'group.initial.rebalance.delay.ms=0',
    // A killed broker leaves the ISR after 10 s instead of 30 s, so writes keep flowing sooner.
    'replica.lag.time.max.ms=10000',
    'auto.create.topics.enable=false',
    'message.max.bytes=16777216',
    'replica.fetch.max.bytes=16777216',
    '',
  ].join('\n');
}

// ---------- processes ----------

function nodeDir(settings: ClusterSettings, node: number): string {
  return path.join(settings.stateDir, `node-${node}`);
}

export function nodeLog(settings: ClusterSettings, node: number): string {
  return path.join(nodeDir(settings, node), 'broker.log');
}

function nodePidFile(settings: ClusterSettings, node: number): string {
  return path.join(nodeDir(settings, node), 'broker.pid');
}

function ownershipMarker(settings: ClusterSettings, node: number): string {
  return `-Dskrya.cluster=${settings.stateDir}#${node}`;
}

/** The pid of node `node` when it runs and is ours (its command line carries our marker). */
export function nodePid(settings: ClusterSettings, node: number): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(nodePidFile(settings, node), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(ownershipMarker(settings, node)) ? pid : null;
  } catch {
    return null;
  }
}

function formatStorage(settings: ClusterSettings, node: number, classpath: string, log4j: string, clusterId: string, passwords: Record<ClusterUser, string>): void {
  const properties = path.join(nodeDir(settings, node), 'server.properties');
  // SCRAM credentials live in the cluster metadata; formatting writes them into its first records.
  const scram = (['skrya', 'outsider', 'admin'] as const).flatMap((user) => ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((mechanism) => ['-S', `${mechanism}=[name=${user},password=${passwords[user]}]`]));
  const format = spawnSync('java', ['-cp', classpath, log4j, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', properties, ...scram], { encoding: 'utf8' });
  fs.appendFileSync(nodeLog(settings, node), `${format.stdout}${format.stderr}`);
  if (format.status !== 0) throw clusterError(`format node ${node}`, 'kafka.tools.StorageTool format failed', nodeLog(settings, node));
}

function spawnNode(settings: ClusterSettings, node: number, classpath: string, log4j: string): number {
  const log = fs.openSync(nodeLog(settings, node), 'a');
  const properties = path.join(nodeDir(settings, node), 'server.properties');
  const child = spawn('java', [ownershipMarker(settings, node), `-Xms128m`, `-Xmx${settings.heap}`, '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', classpath, log4j, 'kafka.Kafka', properties], {
    cwd: nodeDir(settings, node), detached: true, stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  if (child.pid === undefined) throw clusterError(`start node ${node}`, 'the JVM did not start', nodeLog(settings, node));
  child.unref();
  fs.writeFileSync(nodePidFile(settings, node), String(child.pid));
  return child.pid;
}

function prepare(settings: ClusterSettings, report: Report): { classpath: string; log4j: string } {
  requireCommand('java', ['-version'], 'Java 17+ (for the Kafka brokers)');
  requireCommand('openssl', ['version'], 'openssl (makes the cluster\'s certificates)');
  const lib = ensureKafkaArtifacts({ stateDir: settings.stateDir, cacheDir: settings.cacheDir, kafkaVersion: settings.kafkaVersion, apicurioVersion: '', kafkaPort: 0, controllerPort: 0, registryPort: 0, registryManagementPort: 0, registryJavaHome: '' }, report);
  return { classpath: `${lib}/*`, log4j: `-Dlog4j2.configurationFile=${path.join(INFRA_DIR, 'kafka-log4j2.xml')}` };
}

/** Starts one node (formatting its storage the first time) and waits until its client port answers. */
export async function startNode(settings: ClusterSettings, node: number, report: Report = () => {}): Promise<void> {
  if (nodePid(settings, node) !== null) return;
  const { classpath, log4j } = prepare(settings, report);
  const passwords = ensureCredentials(settings);
  const tls = clusterTls(settings);
  const dir = nodeDir(settings, node);
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'server.properties'), serverProperties(settings, node, passwords, tls, dataDir), { mode: 0o600 });
  if (!fs.existsSync(path.join(dataDir, 'meta.properties'))) {
    const idFile = path.join(settings.stateDir, 'cluster.id');
    // Every node of the cluster shares one id.
    if (!fs.existsSync(idFile)) fs.writeFileSync(idFile, newKraftClusterId());
    formatStorage(settings, node, classpath, log4j, fs.readFileSync(idFile, 'utf8'), passwords);
  }
  for (const port of Object.values(nodePorts(settings, node))) {
    if (await portAcceptsConnections(port)) throw clusterError(`start node ${node}`, `port ${port} is already taken; choose another base port with SKRYA_KAFKA_PORT`);
  }
  report(`starting broker ${node} on 127.0.0.1:${nodePorts(settings, node).client} (SASL_SSL)`);
  const pid = spawnNode(settings, node, classpath, log4j);
  const outcome = await waitFor(() => portAcceptsConnections(nodePorts(settings, node).client), 180_000, () => isAlive(pid));
  if (outcome !== 'ok') throw clusterError(`start node ${node}`, outcome === 'exited' ? 'the broker exited during start-up' : 'the broker did not open its client port within 180 s', nodeLog(settings, node));
}

/** A client config for this cluster as `user` (for the setup's own admin work and for tests). */
export function clusterClientConfig(settings: ClusterSettings, user: ClusterUser = 'admin', overrides: Record<string, string> = {}): SkryaConfig {
  return loadConfig({ ...process.env, ...clusterClientEnv(settings, user), SKRYA_LOG_LEVEL: 'warn', ...overrides });
}

/** Starts every node, waits until all of them are registered, and grants `skrya` its ACLs. */
export async function startCluster(settings: ClusterSettings, report: Report = () => {}): Promise<void> {
  fs.mkdirSync(settings.stateDir, { recursive: true });
  try {
    // All at once: a KRaft quorum of three elects no leader until a majority of voters is up.
    await Promise.all(nodeIds(settings).map((node) => startNode(settings, node, report)));
  } catch (error) {
    await stopCluster(settings);
    throw error;
  }
  const kafka = createKafka(clusterClientConfig(settings, 'admin'), createLogger({ level: 'warn', name: 'cluster-setup' }), 'skrya-cluster-setup');
  const admin = kafka.admin();
  await admin.connect();
  try {
    await waitFor(async () => (await admin.describeCluster().catch(() => ({ brokers: [] }))).brokers.length === settings.brokers, 120_000, () => true);
    await allowEverything(admin, 'User:skrya');
  } finally {
    await admin.disconnect();
  }
  const env = Object.entries(clusterClientEnv(settings)).map(([name, value]) => `${name}=${value}`).join('\n');
  fs.writeFileSync(clientEnvFile(settings), `# Skrya's settings for this cluster as user skrya (the password is read from its file)\n${env}\n`);
  report(`cluster of ${settings.brokers} brokers up: ${clusterBrokers(settings)}; client settings in ${clientEnvFile(settings)}`);
}

/** kill -9 one node: no shutdown, nothing flushed (for fault tests). */
export async function killNode(settings: ClusterSettings, node: number): Promise<void> {
  const pid = nodePid(settings, node);
  if (pid === null) return;
  process.kill(pid, 'SIGKILL');
  await waitFor(async () => !isAlive(pid), 30_000, () => true);
  fs.rmSync(nodePidFile(settings, node), { force: true });
}

export async function stopNode(settings: ClusterSettings, node: number, report: Report = () => {}): Promise<void> {
  const pid = nodePid(settings, node);
  if (pid !== null) {
    report(`stopping broker ${node} (pid ${pid})`);
    process.kill(pid, 'SIGTERM');
    if ((await waitFor(async () => !isAlive(pid), 60_000, () => true)) !== 'ok') process.kill(pid, 'SIGKILL');
  }
  fs.rmSync(nodePidFile(settings, node), { force: true });
}

/** Stops every node that has a state folder, however many `up` started. */
export async function stopCluster(settings: ClusterSettings, report: Report = () => {}): Promise<void> {
  await Promise.all(existingNodes(settings).map((node) => stopNode(settings, node, report)));
}

/** Nodes with a state folder (the cluster `stack up --brokers N` made), whether running or not. */
export function existingNodes(settings: ClusterSettings): number[] {
  if (!fs.existsSync(settings.stateDir)) return [];
  return fs.readdirSync(settings.stateDir).map((entry) => /^node-(\d+)$/.exec(entry)?.[1]).filter((id): id is string => id !== undefined).map(Number).sort((a, b) => a - b);
}

export interface NodeStatus {
  name: string;
  pid: number | null;
  running: boolean;
  healthy: boolean;
  endpoint: string;
  log: string;
}

export async function clusterStatus(settings: ClusterSettings): Promise<NodeStatus[]> {
  return Promise.all(existingNodes(settings).map(async (node) => {
    const pid = nodePid(settings, node);
    const endpoint = `127.0.0.1:${nodePorts(settings, node).client}`;
    return { name: `broker-${node}`, pid, running: pid !== null, healthy: pid !== null && (await portAcceptsConnections(nodePorts(settings, node).client)), endpoint, log: nodeLog(settings, node) };
  }));
}
