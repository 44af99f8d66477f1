import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTlsMaterial, makeCertificateAuthority, type TlsMaterial } from '../infra/tls-material.ts';
import { configSchema, loadConfig } from './config.ts';
import { connectionSettings, describeConnection, kafkaSecurityOptions, registryAuthHeaders } from './connection.ts';
import { isSkryaError } from './errors.ts';
import { createLogger } from './logger.ts';

let dir: string;
let tls: TlsMaterial;
let otherCaKey: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-connection-'));
  tls = ensureTlsMaterial(path.join(dir, 'tls'));
  makeCertificateAuthority(path.join(dir, 'other'), 'other-ca');
  otherCaKey = path.join(dir, 'other', 'ca.key');
  fs.writeFileSync(path.join(dir, 'password'), 's3cret-pass\n');
  fs.writeFileSync(path.join(dir, 'not-a-cert.pem'), 'hello\n');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function settingsFor(env: Record<string, string>) {
  return connectionSettings(configSchema.parse(env));
}

/** The problems a CONFIG_INVALID names, or [] when the settings are valid. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    settingsFor(env);
    return [];
  } catch (error) {
    if (!isSkryaError(error) || error.code !== 'CONFIG_INVALID') throw error;
    return error.details.problems as string[];
  }
}

const saslSsl = { SKRYA_KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', SKRYA_KAFKA_SASL_MECHANISM: 'scram-sha-512', SKRYA_KAFKA_SASL_USERNAME: 'skrya' };

describe('connection settings', () => {
  it('default to a plaintext broker without credentials', () => {
    const settings = settingsFor({});
    expect(settings).toEqual({ protocol: 'PLAINTEXT', tls: null, sasl: null, registryAuth: null });
    expect(kafkaSecurityOptions(settings)).toEqual({});
    expect(registryAuthHeaders(settings)).toEqual({});
  });

  it('build SASL_SSL options with a CA file and a password read from a file', () => {
    const settings = settingsFor({ ...saslSsl, SKRYA_KAFKA_TLS_CA_FILE: tls.caCert, SKRYA_KAFKA_SASL_PASSWORD_FILE: path.join(dir, 'password') });
    expect(kafkaSecurityOptions(settings)).toEqual({
      ssl: { ca: [fs.readFileSync(tls.caCert, 'utf8')] },
      sasl: { mechanism: 'scram-sha-512', username: 'skrya', password: 's3cret-pass' },
    });
  });

  it('trust the system CAs when no CA file is given, and add a client certificate when one is', () => {
    expect(kafkaSecurityOptions(settingsFor({ SKRYA_KAFKA_SECURITY_PROTOCOL: 'SSL' }))).toEqual({ ssl: true });
    const mtls = kafkaSecurityOptions(settingsFor({ SKRYA_KAFKA_SECURITY_PROTOCOL: 'SSL', SKRYA_KAFKA_TLS_CERT_FILE: tls.clientCert, SKRYA_KAFKA_TLS_KEY_FILE: tls.clientKey }));
    expect(mtls.ssl).toEqual({ cert: fs.readFileSync(tls.clientCert, 'utf8'), key: fs.readFileSync(tls.clientKey, 'utf8') });
  });

  it.each([
    ['SASL without a username or password', { SKRYA_KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', SKRYA_KAFKA_SASL_MECHANISM: 'plain' }, [/SKRYA_KAFKA_SASL_USERNAME/, /SKRYA_KAFKA_SASL_PASSWORD/]],
    ['SASL without a mechanism', { SKRYA_KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT', SKRYA_KAFKA_SASL_USERNAME: 'a', SKRYA_KAFKA_SASL_PASSWORD: 'b' }, [/SKRYA_KAFKA_SASL_MECHANISM/]],
    ['a password given twice', { ...saslSsl, SKRYA_KAFKA_SASL_PASSWORD: 'x', SKRYA_KAFKA_SASL_PASSWORD_FILE: '/dev/null' }, [/both set/]],
    ['a password file that does not exist', { ...saslSsl, SKRYA_KAFKA_SASL_PASSWORD_FILE: '/nonexistent/password' }, [/cannot read \/nonexistent\/password \(ENOENT\)/, /needs SKRYA_KAFKA_SASL_PASSWORD/]],
    ['SASL settings on a protocol without SASL', { SKRYA_KAFKA_SECURITY_PROTOCOL: 'SSL', SKRYA_KAFKA_SASL_USERNAME: 'a' }, [/does not use SASL/]],
    ['TLS files on a protocol without TLS', { SKRYA_KAFKA_TLS_CA_FILE: '/etc/hostname' }, [/does not use TLS/]],
    ['a CA file that holds no certificate', { SKRYA_KAFKA_SECURITY_PROTOCOL: 'SSL', SKRYA_KAFKA_TLS_CA_FILE: 'NOT_A_CERT' }, [/holds no PEM certificate/]],
    ['a client certificate without its key', { SKRYA_KAFKA_SECURITY_PROTOCOL: 'SSL', SKRYA_KAFKA_TLS_CERT_FILE: 'CLIENT_CERT' }, [/go together/]],
    ['a key that does not belong to the certificate', { SKRYA_KAFKA_SECURITY_PROTOCOL: 'SSL', SKRYA_KAFKA_TLS_CERT_FILE: 'CLIENT_CERT', SKRYA_KAFKA_TLS_KEY_FILE: 'OTHER_KEY' }, [/is not the private key of the certificate/]],
    ['registry basic auth and a token at once', { SKRYA_REGISTRY_USERNAME: 'u', SKRYA_REGISTRY_PASSWORD: 'p', SKRYA_REGISTRY_TOKEN: 't' }, [/not both/]],
    ['a registry username without a password', { SKRYA_REGISTRY_USERNAME: 'u' }, [/needs both/]],
    ['registry credentials over plain http to a remote host', { SKRYA_REGISTRY_URL: 'http://registry.example.com/apis/ccompat/v7', SKRYA_REGISTRY_TOKEN: 't' }, [/clear text/]],
  ])('refuse %s, naming what to set', (_name, env, expected) => {
    const files: Record<string, string> = { NOT_A_CERT: path.join(dir, 'not-a-cert.pem'), CLIENT_CERT: tls.clientCert, OTHER_KEY: otherCaKey };
    const resolved = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, files[value] ?? value]));
    const problems = problemsOf(resolved);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((pattern, index) => expect(problems[index]).toMatch(pattern));
  });

  it('give the registry a basic or a bearer Authorization header', () => {
    expect(registryAuthHeaders(settingsFor({ SKRYA_REGISTRY_USERNAME: 'reg', SKRYA_REGISTRY_PASSWORD: 'pw' }))).toEqual({ authorization: `Basic ${Buffer.from('reg:pw').toString('base64')}` });
    expect(registryAuthHeaders(settingsFor({ SKRYA_REGISTRY_TOKEN_FILE: path.join(dir, 'password') }))).toEqual({ authorization: 'Bearer s3cret-pass' });
  });

  it('are checked by loadConfig, so a service with bad settings stops at start', () => {
    expect(() => loadConfig({ SKRYA_KAFKA_SECURITY_PROTOCOL: 'SASL_SSL' })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });

  it('are described without a secret, and the logger redacts secrets logged by mistake', () => {
    const settings = settingsFor({ ...saslSsl, SKRYA_KAFKA_TLS_CA_FILE: tls.caCert, SKRYA_KAFKA_SASL_PASSWORD: 'hunter2-sasl', SKRYA_REGISTRY_USERNAME: 'reg', SKRYA_REGISTRY_PASSWORD: 'hunter2-registry' });
    const described = JSON.stringify(describeConnection(settings));
    expect(described).toContain('scram-sha-512 as skrya');
    expect(described).not.toMatch(/hunter2/);
    const lines: string[] = [];
    const destination = { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream;
    createLogger({ destination }).info({ sasl: settings.sasl, registryAuth: settings.registryAuth }, 'connecting');
    expect(lines.join('')).toContain('[redacted]');
    expect(lines.join('')).not.toMatch(/hunter2/);
  });
});
