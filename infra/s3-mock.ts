/**
 * A local S3-compatible server for the sink's bucket tests: Adobe S3Mock, a maintained Spring Boot
 * implementation of the S3 REST API (conditional PUTs included), taken as its executable jar from
 * Maven Central like the Kafka jars (cached under SKRYA_CACHE_DIR), run on loopback with a
 * throwaway store folder. It does not check signatures: wrong-credential answers are not testable
 * against it (the store's error mapping for them is covered by the missing-credentials unit test).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findJavaAtLeast, portAcceptsConnections, runMaven, stackError, waitFor } from './local-stack.ts';

export const S3MOCK_VERSION = '5.2.0';
/** S3Mock 5 runs on Spring Boot 4, which needs Java 17. */
const S3MOCK_MIN_JAVA = 17;

/** The executable jar in the cache, fetched through Maven the first time. */
export function ensureS3MockJar(cacheDir: string, report: (line: string) => void = () => {}): string {
  const home = path.join(cacheDir, `s3mock-${S3MOCK_VERSION}`);
  const jar = path.join(home, 's3mock-exec.jar');
  if (fs.existsSync(jar)) return jar;
  report(`fetching S3Mock ${S3MOCK_VERSION} from Maven Central into ${home}`);
  fs.mkdirSync(home, { recursive: true });
  const fetched = path.join(home, 'fetch');
  runMaven(['dependency:copy', `-Dartifact=com.adobe.testing:s3mock:${S3MOCK_VERSION}:jar:exec`, `-DoutputDirectory=${fetched}`, '-Dmdep.stripVersion=true', '-Dmdep.stripClassifier=true'], home, 'fetch s3mock', path.join(home, 'maven.log'));
  // Renamed into place only once complete, so an interrupted fetch is fetched again.
  fs.renameSync(path.join(fetched, 's3mock.jar'), jar);
  fs.rmSync(fetched, { recursive: true, force: true });
  return jar;
}

export interface S3Mock {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts S3Mock on `port` (http) with `buckets` created, its objects under `storeDir`; resolves once it answers. */
export async function startS3Mock(options: { cacheDir: string; storeDir: string; port: number; buckets: readonly string[]; logFile: string }): Promise<S3Mock> {
  const java = findJavaAtLeast(S3MOCK_MIN_JAVA);
  if (java === null) throw stackError('prerequisites', `S3Mock needs Java ${S3MOCK_MIN_JAVA} or newer and none was found`);
  const jar = ensureS3MockJar(options.cacheDir);
  fs.mkdirSync(options.storeDir, { recursive: true });
  const log = fs.openSync(options.logFile, 'a');
  const child: ChildProcess = spawn(java, ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-jar', jar, `--http.port=${options.port}`, '--server.port=0'], {
    env: { ...process.env, COM_ADOBE_TESTING_S3MOCK_STORE_ROOT: options.storeDir, COM_ADOBE_TESTING_S3MOCK_STORE_INITIAL_BUCKETS: options.buckets.join(','), COM_ADOBE_TESTING_S3MOCK_STORE_RETAIN_FILES_ON_EXIT: 'false' },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited = false;
  const ended = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    resolve();
  }));
  const stop = async () => {
    if (!exited) child.kill('SIGTERM');
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (!exited) child.kill('SIGKILL');
    await ended;
  };
  // It binds its port once Spring has started (about 35 s on a loaded 2-core machine).
  const started = await waitFor(() => portAcceptsConnections(options.port), 300_000, () => !exited);
  if (started !== 'ok') {
    await stop();
    throw stackError('start s3mock', started === 'exited' ? 'S3Mock exited while starting' : 'S3Mock did not answer within 300 s', options.logFile);
  }
  return { endpoint: `http://127.0.0.1:${options.port}`, stop };
}
