/**
 * How Skrya reaches a secured cluster: TLS toward the brokers (a CA file or the system's CAs, an
 * optional client certificate), SASL (PLAIN, SCRAM-SHA-256/512) and schema-registry auth (basic or
 * bearer). Settings come from the environment, each secret directly or from a file; they are checked
 * together once, at start, and every file is parsed (a certificate that is not one fails here, not
 * at the first handshake). Secrets only leave this module inside client options, never in a summary.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { KafkaConfig } from 'kafkajs';
import type { SkryaConfig } from './config.ts';
import { SkryaError } from './errors.ts';

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

export interface TlsSettings {
  /** PEM text of the trusted CA(s); null = the system's trusted CAs. */
  ca: { file: string; pem: string } | null;
  clientCertificate: { certFile: string; keyFile: string; cert: string; key: string } | null;
}

export interface ConnectionSettings {
  protocol: SkryaConfig['SKRYA_KAFKA_SECURITY_PROTOCOL'];
  tls: TlsSettings | null;
  sasl: { mechanism: SaslMechanism; username: string; password: string } | null;
  registryAuth: { kind: 'basic'; username: string; password: string } | { kind: 'bearer'; token: string } | null;
}

type SecretName = 'SKRYA_KAFKA_SASL_PASSWORD' | 'SKRYA_REGISTRY_PASSWORD' | 'SKRYA_REGISTRY_TOKEN';

/** Reads a file, collecting a problem instead of throwing, so every problem is reported at once. */
function readFile(file: string, variable: string, problems: string[]): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return null;
  }
}

/** A secret given as `<NAME>` or `<NAME>_FILE` (trailing newline trimmed), never both; '' when neither. */
function secret(config: SkryaConfig, name: SecretName, problems: string[]): string {
  const direct = config[name];
  const file = config[`${name}_FILE`];
  if (direct && file) {
    problems.push(`${name} and ${name}_FILE are both set: keep one`);
    // Already a problem: returning the direct value keeps it from being reported as missing too.
    return direct;
  }
  if (!file) return direct;
  const text = readFile(file, `${name}_FILE`, problems);
  return text === null ? '' : text.replace(/\r?\n$/, '');
}

function pemCertificates(file: string, variable: string, problems: string[]): string | null {
  const pem = readFile(file, variable, problems);
  if (pem === null) return null;
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    problems.push(`${variable}: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    return null;
  }
  for (const block of blocks) {
    try {
      new crypto.X509Certificate(block);
    } catch (error) {
      problems.push(`${variable}: ${file} holds a certificate that cannot be parsed (${(error as Error).message})`);
      return null;
    }
  }
  return pem;
}

function pemPrivateKey(file: string, variable: string, problems: string[]): string | null {
  const pem = readFile(file, variable, problems);
  if (pem === null) return null;
  try {
    crypto.createPrivateKey(pem);
    return pem;
  } catch (error) {
    problems.push(`${variable}: ${file} is not an unencrypted PEM private key (${(error as Error).message})`);
    return null;
  }
}

function tlsSettings(config: SkryaConfig, problems: string[]): TlsSettings {
  const caFile = config.SKRYA_KAFKA_TLS_CA_FILE;
  const ca = caFile ? pemCertificates(caFile, 'SKRYA_KAFKA_TLS_CA_FILE', problems) : null;
  const { SKRYA_KAFKA_TLS_CERT_FILE: certFile, SKRYA_KAFKA_TLS_KEY_FILE: keyFile } = config;
  if (Boolean(certFile) !== Boolean(keyFile)) {
    problems.push('SKRYA_KAFKA_TLS_CERT_FILE and SKRYA_KAFKA_TLS_KEY_FILE go together: set both for a client certificate, or neither');
    return { ca: ca === null ? null : { file: caFile, pem: ca }, clientCertificate: null };
  }
  let clientCertificate: TlsSettings['clientCertificate'] = null;
  if (certFile && keyFile) {
    const cert = pemCertificates(certFile, 'SKRYA_KAFKA_TLS_CERT_FILE', problems);
    const key = pemPrivateKey(keyFile, 'SKRYA_KAFKA_TLS_KEY_FILE', problems);
    if (cert !== null && key !== null) {
      const matches = new crypto.X509Certificate(cert).checkPrivateKey(crypto.createPrivateKey(key));
      if (!matches) problems.push(`SKRYA_KAFKA_TLS_KEY_FILE: ${keyFile} is not the private key of the certificate in ${certFile}`);
      else clientCertificate = { certFile, keyFile, cert, key };
    }
  }
  return { ca: ca === null ? null : { file: caFile, pem: ca }, clientCertificate };
}

/** Checks the connection settings as a whole; throws CONFIG_INVALID naming every problem and its fix. */
export function connectionSettings(config: SkryaConfig): ConnectionSettings {
  const problems: string[] = [];
  const protocol = config.SKRYA_KAFKA_SECURITY_PROTOCOL;
  const usesTls = protocol === 'SSL' || protocol === 'SASL_SSL';
  const usesSasl = protocol === 'SASL_PLAINTEXT' || protocol === 'SASL_SSL';

  const tlsVariables = (['SKRYA_KAFKA_TLS_CA_FILE', 'SKRYA_KAFKA_TLS_CERT_FILE', 'SKRYA_KAFKA_TLS_KEY_FILE'] as const).filter((name) => config[name]);
  if (!usesTls && tlsVariables.length > 0) problems.push(`${tlsVariables.join(', ')} set but SKRYA_KAFKA_SECURITY_PROTOCOL=${protocol} does not use TLS: choose SSL or SASL_SSL, or unset them`);
  const tls = usesTls ? tlsSettings(config, problems) : null;

  let sasl: ConnectionSettings['sasl'] = null;
  const password = secret(config, 'SKRYA_KAFKA_SASL_PASSWORD', problems);
  const { SKRYA_KAFKA_SASL_MECHANISM: mechanism, SKRYA_KAFKA_SASL_USERNAME: username } = config;
  if (usesSasl) {
    if (!mechanism) problems.push(`SKRYA_KAFKA_SECURITY_PROTOCOL=${protocol} needs SKRYA_KAFKA_SASL_MECHANISM (plain, scram-sha-256 or scram-sha-512)`);
    if (!username) problems.push(`SKRYA_KAFKA_SECURITY_PROTOCOL=${protocol} needs SKRYA_KAFKA_SASL_USERNAME`);
    if (!password) problems.push(`SKRYA_KAFKA_SECURITY_PROTOCOL=${protocol} needs SKRYA_KAFKA_SASL_PASSWORD or SKRYA_KAFKA_SASL_PASSWORD_FILE`);
    if (mechanism && username && password) sasl = { mechanism, username, password };
  } else if (mechanism || username || password) {
    problems.push(`SASL settings set but SKRYA_KAFKA_SECURITY_PROTOCOL=${protocol} does not use SASL: choose SASL_SSL (or SASL_PLAINTEXT), or unset them`);
  }

  let registryAuth: ConnectionSettings['registryAuth'] = null;
  const registryPassword = secret(config, 'SKRYA_REGISTRY_PASSWORD', problems);
  const token = secret(config, 'SKRYA_REGISTRY_TOKEN', problems);
  const registryUser = config.SKRYA_REGISTRY_USERNAME;
  if (token && (registryUser || registryPassword)) problems.push('the registry takes basic auth (SKRYA_REGISTRY_USERNAME + password) or a bearer token (SKRYA_REGISTRY_TOKEN), not both');
  else if (token) registryAuth = { kind: 'bearer', token };
  else if (Boolean(registryUser) !== Boolean(registryPassword)) problems.push('registry basic auth needs both SKRYA_REGISTRY_USERNAME and SKRYA_REGISTRY_PASSWORD (or SKRYA_REGISTRY_PASSWORD_FILE)');
  else if (registryUser) registryAuth = { kind: 'basic', username: registryUser, password: registryPassword };
  if (registryAuth && config.SKRYA_REGISTRY_URL.startsWith('http://') && !isLoopbackUrl(config.SKRYA_REGISTRY_URL)) {
    problems.push(`SKRYA_REGISTRY_URL is plain http:// to a remote host: registry credentials would cross the network in clear text; use https://`);
  }

  if (problems.length > 0) {
    throw new SkryaError('CONFIG_INVALID', `invalid connection settings:\n${problems.map((problem) => `  ${problem}`).join('\n')}`, { details: { problems } });
  }
  return { protocol, tls, sasl, registryAuth };
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

/** The kafkajs `ssl` and `sasl` client options for these settings. */
export function kafkaSecurityOptions(settings: ConnectionSettings): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const options: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  if (settings.tls) {
    const { ca, clientCertificate } = settings.tls;
    // `ssl: true` trusts Node's bundled and system CAs; a CA file replaces them, as in the Java client.
    options.ssl = ca === null && clientCertificate === null
      ? true
      : {
          ...(ca ? { ca: [ca.pem] } : {}),
          ...(clientCertificate ? { cert: clientCertificate.cert, key: clientCertificate.key } : {}),
        };
  }
  if (settings.sasl) {
    const { mechanism, username, password } = settings.sasl;
    // One literal per mechanism: kafkajs types each mechanism's options apart.
    options.sasl = mechanism === 'plain' ? { mechanism, username, password }
      : mechanism === 'scram-sha-256' ? { mechanism, username, password }
        : { mechanism, username, password };
  }
  return options;
}

/** The Authorization header for registry requests ({} without registry auth). */
export function registryAuthHeaders(settings: ConnectionSettings): Record<string, string> {
  const auth = settings.registryAuth;
  if (auth === null) return {};
  if (auth.kind === 'bearer') return { authorization: `Bearer ${auth.token}` };
  return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` };
}

/** What is configured, for logs and `skrya doctor`: files and names, never a secret. */
export function describeConnection(settings: ConnectionSettings): Record<string, string> {
  return {
    protocol: settings.protocol,
    tls: settings.tls === null ? 'off' : settings.tls.ca ? `CA file ${settings.tls.ca.file}` : 'system CAs',
    clientCertificate: settings.tls?.clientCertificate ? settings.tls.clientCertificate.certFile : 'none',
    sasl: settings.sasl ? `${settings.sasl.mechanism} as ${settings.sasl.username}` : 'off',
    registryAuth: settings.registryAuth === null ? 'none' : settings.registryAuth.kind === 'basic' ? `basic as ${settings.registryAuth.username}` : 'bearer token',
  };
}
