/** A real pino logger (with Skrya's redaction) writing into memory, so tests can read each event. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../../runtime/logger.ts';

export interface CapturedLogs {
  logger: Logger;
  /** Every line as written (to search for leaked secrets). */
  text(): string;
  events(): Array<Record<string, unknown>>;
}

export function captureLogs(level = 'debug'): CapturedLogs {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = createLogger({ level, destination });
  return {
    logger,
    text: () => lines.join('\n'),
    events: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
