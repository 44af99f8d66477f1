/**
 * The local stack: a single-node Apache Kafka (KRaft) and Apicurio Registry on loopback,
 * run from Maven Central artifacts without Docker. Artifacts are cached outside the repo;
 * pids, logs and data live in the stack's state folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SkryaError } from '../runtime/errors.ts';
import type { SkryaConfig } from '../runtime/config.ts';

export const INFRA_DIR = path.dirname(fileURLToPath(import.meta.url));
const REGISTRY_MIN_JAVA = 21;

export interface StackPaths {
  stateDir: string;
  cacheDir: string;
}

export interface StackSettings extends StackPaths {
  kafkaVersion: string;
  apicurioVersion: string;
  kafkaPort: number;
  controllerPort: number;
  registryPort: number;
  registryManagementPort: number;
  registryJavaHome: string;
}

/**
 * A KRaft cluster id: 16 random bytes, base64url without padding, never starting with '-'. The
 * storage tool's argument parser reads `-t -abc…` as a missing value followed by an option, so one
 * id in 64 failed the format (Kafka's own Uuid.randomUuid draws again for the same reason).
 */
export function newKraftClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export function stackSettings(config: SkryaConfig): StackSettings {
  return {
    stateDir: path.resolve(config.SKRYA_STACK_DIR),
    cacheDir: path.resolve(config.SKRYA_CACHE_DIR),
    kafkaVersion: config.SKRYA_KAFKA_VERSION,
    apicurioVersion: config.SKRYA_APICURIO_VERSION,
    kafkaPort: config.SKRYA_KAFKA_PORT,
    controllerPort: config.SKRYA_KAFKA_CONTROLLER_PORT,
    registryPort: config.SKRYA_REGISTRY_PORT,
    registryManagementPort: config.SKRYA_REGISTRY_MANAGEMENT_PORT,
    registryJavaHome: config.SKRYA_REGISTRY_JAVA_HOME,
  };
}

export type ComponentName = 'kafka' | 'registry';

export interface ComponentStatus {
  name: ComponentName;
  pid: number | null;
  running: boolean;
  healthy: boolean;
  endpoint: string;
  log: string;
}

export type Report = (line: string) => void;

export function stackError(step: string, message: string, log?: string): SkryaError {
  const where = log ? ` (see ${log})` : '';
  return new SkryaError('STACK_FAILED', `stack ${step}: ${message}${where}`, { details: { step, log } });
}

// ---------- processes we own ----------

function pidFile(settings: StackSettings, name: ComponentName): string {
  return path.join(settings.stateDir, `${name}.pid`);
}

export function logFile(settings: StackSettings, name: ComponentName): string {
  return path.join(settings.stateDir, `${name}.log`);
}

/** Every process we start carries this marker, so `down` can prove a pid is ours before it signals it. */
function ownershipMarker(settings: StackSettings, name: ComponentName): string {
  return `-Dskrya.stack=${settings.stateDir}#${name}`;
}

function readOwnedPid(settings: StackSettings, name: ComponentName): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile(settings, name), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.includes(ownershipMarker(settings, name)) ? pid : null;
  } catch {
    return null;
  }
}

// ---------- ports and health ----------

export function portAcceptsConnections(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function kafkaHealthy(settings: StackSettings): Promise<boolean> {
  // A broker that accepts connections on its client port has finished starting (KRaft binds late).
  return portAcceptsConnections(settings.kafkaPort);
}

export function registryUrl(settings: StackSettings): string {
  return `http://127.0.0.1:${settings.registryPort}/apis/ccompat/v7`;
}

async function registryHealthy(settings: StackSettings): Promise<boolean> {
  try {
    const ready = await fetch(`http://127.0.0.1:${settings.registryManagementPort}/health/ready`, { signal: AbortSignal.timeout(2000) });
    if (!ready.ok) return false;
    const subjects = await fetch(`${registryUrl(settings)}/subjects`, { signal: AbortSignal.timeout(2000) });
    return subjects.ok;
  } catch {
    return false;
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, alive: () => boolean): Promise<'ok' | 'timeout' | 'exited'> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return 'ok';
    if (!alive()) return 'exited';
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return 'timeout';
}

// ---------- prerequisites ----------

function javaMajorVersion(javaBinary: string): number | null {
  const result = spawnSync(javaBinary, ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(result.stderr);
  if (!match) return null;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major;
}

export function requireCommand(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw stackError('prerequisites', `${what} is required but '${command}' was not found on PATH; install it (e.g. apt-get install ${command === 'mvn' ? 'maven' : 'openjdk-17-jre-headless'})`);
}

/** Apicurio 3.3 is compiled for Java 21+: find such a JDK (configured, JAVA_HOME, PATH, then /usr/lib/jvm). */
export function findRegistryJava(settings: StackSettings): string {
  const java = findJavaAtLeast(REGISTRY_MIN_JAVA, settings.registryJavaHome);
  if (java === null) throw stackError('prerequisites', `Apicurio Registry ${settings.apicurioVersion} needs Java ${REGISTRY_MIN_JAVA} or newer and none was found; install one and set SKRYA_REGISTRY_JAVA_HOME to it`);
  return java;
}

/** A java binary of at least `minimum` (from `home`, JAVA_HOME, PATH, then /usr/lib/jvm), or null. */
export function findJavaAtLeast(minimum: number, home = ''): string | null {
  const candidates: string[] = [];
  if (home) candidates.push(path.join(home, 'bin', 'java'));
  if (process.env.JAVA_HOME) candidates.push(path.join(process.env.JAVA_HOME, 'bin', 'java'));
  candidates.push('java');
  try {
    for (const entry of fs.readdirSync('/usr/lib/jvm').sort().reverse()) candidates.push(path.join('/usr/lib/jvm', entry, 'bin', 'java'));
  } catch {
    // No system JVM folder: only the candidates above.
  }
  for (const candidate of candidates) {
    const major = javaMajorVersion(candidate);
    if (major !== null && major >= minimum) return candidate;
  }
  return null;
}

// ---------- artifacts (Maven Central, cached) ----------

export function runMaven(args: string[], cwd: string, step: string, logPath: string): void {
  const result = spawnSync('mvn', ['-B', '-q', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  fs.writeFileSync(logPath, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.error || result.status !== 0) throw stackError(step, `Maven failed (exit ${result.status ?? 'none'})`, logPath);
}

export function kafkaLibDir(settings: StackSettings): string {
  return path.join(settings.cacheDir, `kafka-${settings.kafkaVersion}`, 'lib');
}

export function ensureKafkaArtifacts(settings: StackSettings, report: Report): string {
  const home = path.join(settings.cacheDir, `kafka-${settings.kafkaVersion}`);
  const complete = path.join(home, '.complete');
  const lib = kafkaLibDir(settings);
  if (fs.existsSync(complete)) return lib;
  report(`fetching Kafka ${settings.kafkaVersion} from Maven Central into ${home}`);
  fs.rmSync(lib, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const pom = fs.readFileSync(path.join(INFRA_DIR, 'maven', 'kafka-runtime.pom.xml'), 'utf8').replaceAll('@KAFKA_VERSION@', settings.kafkaVersion);
  fs.writeFileSync(path.join(home, 'pom.xml'), pom);
  runMaven(['dependency:copy-dependencies', `-DoutputDirectory=${lib}`, '-DincludeScope=runtime'], home, 'fetch kafka', path.join(home, 'maven.log'));
  fs.writeFileSync(complete, new Date().toISOString());
  return lib;
}

function ensureRegistryArtifacts(settings: StackSettings, report: Report): string {
  const home = path.join(settings.cacheDir, `apicurio-registry-${settings.apicurioVersion}`);
  const complete = path.join(home, '.complete');
  const app = path.join(home, 'app');
  if (fs.existsSync(complete)) return app;
  report(`fetching Apicurio Registry ${settings.apicurioVersion} from Maven Central into ${home}`);
  fs.rmSync(app, { recursive: true, force: true });
  fs.mkdirSync(app, { recursive: true });
  const artifact = `io.apicurio:apicurio-registry-app:${settings.apicurioVersion}:tar.gz:all`;
  runMaven(['dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${home}`, '-Dmdep.stripVersion=true'], home, 'fetch registry', path.join(home, 'maven.log'));
  const archive = path.join(home, 'apicurio-registry-app-all.tar.gz');
  const untar = spawnSync('tar', ['-xzf', archive, '-C', app], { encoding: 'utf8' });
  if (untar.status !== 0) throw stackError('unpack registry', untar.stderr || 'tar failed');
  fs.rmSync(archive);
  if (!fs.existsSync(path.join(app, 'quarkus-run.jar'))) throw stackError('unpack registry', `quarkus-run.jar missing in ${app}`);
  fs.writeFileSync(complete, new Date().toISOString());
  return app;
}

// ---------- starting ----------

function kafkaServerProperties(settings: StackSettings, dataDir: string): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${settings.controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${settings.kafkaPort},CONTROLLER://127.0.0.1:${settings.controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${settings.kafkaPort}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=3',
    // Single node: internal topics cannot have more than one replica; few partitions start fast.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=5',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=5',
    'group.initial.rebalance.delay.ms=0',
    // Topics come from topics/ through `skrya topics create`, never by accident.
    'auto.create.topics.enable=false',
    'message.max.bytes=16777216',
    '',
  ].join('\n');
}

function spawnOwned(settings: StackSettings, name: ComponentName, java: string, args: string[], cwd: string): number {
  const log = fs.openSync(logFile(settings, name), 'a');
  const child = spawn(java, [ownershipMarker(settings, name), ...args], { cwd, detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  if (child.pid === undefined) throw stackError(`start ${name}`, 'the JVM did not start', logFile(settings, name));
  child.unref();
  fs.writeFileSync(pidFile(settings, name), String(child.pid));
  return child.pid;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when a process we started is (or becomes, if still starting) healthy: `up` is then a no-op. */
async function alreadyOurs(settings: StackSettings, name: ComponentName, healthy: () => Promise<boolean>): Promise<boolean> {
  const pid = readOwnedPid(settings, name);
  if (pid === null) return false;
  const outcome = await waitFor(healthy, 120_000, () => isAlive(pid));
  if (outcome === 'ok') return true;
  throw stackError(`start ${name}`, `pid ${pid} from an earlier \`stack up\` is running but not healthy; run \`skrya stack down\` and try again`, logFile(settings, name));
}

async function assertPortsFree(settings: StackSettings, component: ComponentName): Promise<void> {
  const ports: Array<[number, string]> = component === 'kafka'
    ? [[settings.kafkaPort, 'SKRYA_KAFKA_PORT'], [settings.controllerPort, 'SKRYA_KAFKA_CONTROLLER_PORT']]
    : [[settings.registryPort, 'SKRYA_REGISTRY_PORT'], [settings.registryManagementPort, 'SKRYA_REGISTRY_MANAGEMENT_PORT']];
  for (const [port, variable] of ports) {
    if (await portAcceptsConnections(port)) {
      throw stackError(`start ${component}`, `port ${port} is already taken by another process; stop it or choose another port with ${variable}`);
    }
  }
}

async function startKafka(settings: StackSettings, report: Report): Promise<void> {
  if (await alreadyOurs(settings, 'kafka', () => kafkaHealthy(settings))) return;
  await assertPortsFree(settings, 'kafka');
  requireCommand('java', ['-version'], 'Java 17+ (for the Kafka broker)');
  const lib = ensureKafkaArtifacts(settings, report);
  const kafkaDir = path.join(settings.stateDir, 'kafka');
  const dataDir = path.join(kafkaDir, 'data');
  const propertiesPath = path.join(kafkaDir, 'server.properties');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(propertiesPath, kafkaServerProperties(settings, dataDir));
  const classpath = `${lib}/*`;
  const log4j = `-Dlog4j2.configurationFile=${path.join(INFRA_DIR, 'kafka-log4j2.xml')}`;
  if (!fs.existsSync(path.join(dataDir, 'meta.properties'))) {
    const clusterId = newKraftClusterId();
    const format = spawnSync('java', ['-cp', classpath, log4j, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', propertiesPath], { encoding: 'utf8' });
    fs.appendFileSync(logFile(settings, 'kafka'), `${format.stdout}${format.stderr}`);
    if (format.status !== 0) throw stackError('format kafka storage', 'kafka.tools.StorageTool format failed', logFile(settings, 'kafka'));
  }
  report(`starting Kafka ${settings.kafkaVersion} on 127.0.0.1:${settings.kafkaPort}`);
  const pid = spawnOwned(settings, 'kafka', 'java', ['-Xms256m', '-Xmx768m', '-XX:+UseG1GC', '-cp', classpath, log4j, 'kafka.Kafka', propertiesPath], kafkaDir);
  const outcome = await waitFor(() => kafkaHealthy(settings), 90_000, () => isAlive(pid));
  if (outcome !== 'ok') throw stackError('start kafka', outcome === 'exited' ? 'the broker exited during start-up' : 'the broker did not become healthy within 90 s', logFile(settings, 'kafka'));
}

async function startRegistry(settings: StackSettings, report: Report): Promise<void> {
  if (await alreadyOurs(settings, 'registry', () => registryHealthy(settings))) return;
  await assertPortsFree(settings, 'registry');
  const java = findRegistryJava(settings);
  const app = ensureRegistryArtifacts(settings, report);
  const dataDir = path.join(settings.stateDir, 'registry');
  fs.mkdirSync(dataDir, { recursive: true });
  report(`starting Apicurio Registry ${settings.apicurioVersion} on 127.0.0.1:${settings.registryPort}`);
  const pid = spawnOwned(settings, 'registry', java, [
    '-Xms128m', '-Xmx512m',
    '-Dquarkus.http.host=127.0.0.1',
    `-Dquarkus.http.port=${settings.registryPort}`,
    '-Dquarkus.management.host=127.0.0.1',
    `-Dquarkus.management.port=${settings.registryManagementPort}`,
    // Schemas survive a registry restart, so ids already written into Kafka keep resolving.
    '-Dapicurio.storage.kind=sql',
    '-Dapicurio.storage.sql.kind=h2',
    `-Dapicurio.datasource.url=jdbc:h2:file:${path.join(dataDir, 'registry')};AUTO_SERVER=FALSE`,
    '-Dapicurio.datasource.username=sa',
    '-Dapicurio.datasource.password=sa',
    '-Dquarkus.log.level=WARN',
    '-Dquarkus.log.category."io.quarkus".level=INFO',
    '-jar', path.join(app, 'quarkus-run.jar'),
  ], dataDir);
  const outcome = await waitFor(() => registryHealthy(settings), 120_000, () => isAlive(pid));
  if (outcome !== 'ok') throw stackError('start registry', outcome === 'exited' ? 'the registry exited during start-up' : 'the registry did not become healthy within 120 s', logFile(settings, 'registry'));
}

/**
 * The Confluent client's register() reads /config first and Apicurio answers 404 without a global
 * rule; BACKWARD as the global default also guards every subject we do not configure ourselves.
 */
async function setGlobalCompatibility(settings: StackSettings): Promise<void> {
  const response = await fetch(`${registryUrl(settings)}/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: 'BACKWARD' }),
  });
  if (!response.ok) throw stackError('configure registry', `setting the global BACKWARD rule failed: HTTP ${response.status} ${await response.text()}`, logFile(settings, 'registry'));
}

export async function stackUp(settings: StackSettings, report: Report = () => {}): Promise<ComponentStatus[]> {
  requireCommand('mvn', ['-v'], 'Apache Maven (fetches the Kafka and registry artifacts)');
  fs.mkdirSync(settings.stateDir, { recursive: true });
  // Every port is checked before anything starts, so a clash leaves nothing half-started.
  const components: Array<[ComponentName, () => Promise<void>]> = [['kafka', () => startKafka(settings, report)], ['registry', () => startRegistry(settings, report)]];
  const toStart: typeof components = [];
  for (const [name, start] of components) {
    if (readOwnedPid(settings, name) === null) await assertPortsFree(settings, name);
    toStart.push([name, start]);
  }
  const results = await Promise.allSettled(toStart.map(([, start]) => start()));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await stackDown(settings, report);
    throw failure.reason;
  }
  await setGlobalCompatibility(settings);
  return stackStatus(settings);
}

// ---------- stopping and status ----------

async function stopComponent(settings: StackSettings, name: ComponentName, report: Report): Promise<void> {
  const pid = readOwnedPid(settings, name);
  if (pid !== null) {
    report(`stopping ${name} (pid ${pid})`);
    process.kill(pid, 'SIGTERM');
    const stopped = await waitFor(async () => !isAlive(pid), 30_000, () => true);
    if (stopped !== 'ok') process.kill(pid, 'SIGKILL');
  }
  fs.rmSync(pidFile(settings, name), { force: true });
}

export async function stackDown(settings: StackSettings, report: Report = () => {}): Promise<void> {
  await Promise.all([stopComponent(settings, 'kafka', report), stopComponent(settings, 'registry', report)]);
}

export async function stackStatus(settings: StackSettings): Promise<ComponentStatus[]> {
  const kafkaPid = readOwnedPid(settings, 'kafka');
  const registryPid = readOwnedPid(settings, 'registry');
  return [
    {
      name: 'kafka',
      pid: kafkaPid,
      running: kafkaPid !== null,
      healthy: kafkaPid !== null && (await kafkaHealthy(settings)),
      endpoint: `127.0.0.1:${settings.kafkaPort}`,
      log: logFile(settings, 'kafka'),
    },
    {
      name: 'registry',
      pid: registryPid,
      running: registryPid !== null,
      healthy: registryPid !== null && (await registryHealthy(settings)),
      endpoint: registryUrl(settings),
      log: logFile(settings, 'registry'),
    },
  ];
}

/** Stops one component without `down`'s cleanup, for fault tests that restart it. */
export async function stopStackComponent(settings: StackSettings, name: ComponentName): Promise<void> {
  await stopComponent(settings, name, () => {});
}

export async function startStackComponent(settings: StackSettings, name: ComponentName): Promise<void> {
  fs.mkdirSync(settings.stateDir, { recursive: true });
  if (name === 'kafka') await startKafka(settings, () => {});
  else {
    await startRegistry(settings, () => {});
    await setGlobalCompatibility(settings);
  }
}
