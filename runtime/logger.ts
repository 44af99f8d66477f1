import { createRequire } from 'node:module';
import { pino, stdSerializers, destination, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger };

/** Field paths whose values are secrets: they never reach a log line. */
export const REDACTED_PATHS = [
  '*.apiKey', '*.api_key', '*.token', '*.password', '*.secret', '*.authorization', '*.Authorization',
  '*.credentials', 'headers["x-api-key"]', 'headers.authorization', '*.headers.authorization', '*.headers["x-api-key"]',
  '*.headers["X-Subscription-Token"]', 'apiKey', 'token', 'password', 'secret', 'credentials',
];

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Where the lines go; stderr by default. */
  destination?: NodeJS.WritableStream;
  /**
   * Short human lines (time, level, message, fields on one line) instead of JSON. By default only on
   * stderr when it is a terminal: piped or redirected output stays JSON for log collectors.
   */
  pretty?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const human = options.pretty ?? (options.destination === undefined && process.stderr.isTTY === true);
  const target = options.destination ?? (human ? 2 : destination(2));
  // Loaded only for a terminal: piped services and one-off commands do not pay for it at start-up.
  const stream = human
    ? (createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty)({ destination: target, sync: true, colorize: options.destination === undefined, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,name' })
    : (target as NodeJS.WritableStream);
  return pino(
    {
      name: options.name ?? 'skrya',
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { pid: process.pid },
      serializers: { err: stdSerializers.err },
    },
    stream,
  );
}
