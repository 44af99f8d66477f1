/**
 * Certificates for a local TLS cluster, made with openssl at setup into the stack's state folder
 * (never into git): a private CA, a server certificate for 127.0.0.1/localhost signed by it, and a
 * client certificate. Kafka reads PEM directly (ssl.keystore.type=PEM), so no Java keystore is needed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SkryaError } from '../runtime/errors.ts';

export interface TlsMaterial {
  dir: string;
  /** The CA certificate clients trust (SKRYA_KAFKA_TLS_CA_FILE). */
  caCert: string;
  /** The server's private key, certificate and CA in one PEM file, as Kafka's PEM keystore wants them. */
  serverKeystore: string;
  clientCert: string;
  clientKey: string;
}

function openssl(args: string[], cwd: string): void {
  const result = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new SkryaError('STACK_FAILED', `openssl ${args[0]} failed: ${result.error?.message ?? result.stderr.trim()}`, { details: { step: 'certificates' } });
  }
}

function signedCertificate(dir: string, name: string, subject: string, extensions: string): void {
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject], dir);
  fs.writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '365', '-sha256', '-extfile', `${name}.ext`], dir);
  fs.rmSync(path.join(dir, `${name}.csr`));
  fs.rmSync(path.join(dir, `${name}.ext`));
}

/** A CA of its own: what a client that trusts only it makes of a certificate from another CA. */
export function makeCertificateAuthority(dir: string, commonName: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '365', '-sha256', '-subj', `/CN=${commonName}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  return path.join(dir, 'ca.pem');
}

/** Made once per folder; a folder that already holds the whole set is reused as it is. */
export function ensureTlsMaterial(dir: string): TlsMaterial {
  const material: TlsMaterial = {
    dir,
    caCert: path.join(dir, 'ca.pem'),
    serverKeystore: path.join(dir, 'server-keystore.pem'),
    clientCert: path.join(dir, 'client.pem'),
    clientKey: path.join(dir, 'client.key'),
  };
  if ([material.caCert, material.serverKeystore, material.clientCert, material.clientKey].every((file) => fs.existsSync(file))) return material;
  makeCertificateAuthority(dir, 'skrya-local-ca');
  signedCertificate(dir, 'server', '/CN=localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
  signedCertificate(dir, 'client', '/CN=skrya-client', 'extendedKeyUsage=clientAuth\n');
  const serverKeystore = ['server.key', 'server.pem', 'ca.pem'].map((file) => fs.readFileSync(path.join(dir, file), 'utf8')).join('');
  fs.writeFileSync(material.serverKeystore, serverKeystore, { mode: 0o600 });
  for (const file of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, file), 0o600);
  return material;
}
