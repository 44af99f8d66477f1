import { pino, stdSerializers, destination, type Logger } from 'pino';

export type { Logger };

/** Field paths whose values are secrets: they never reach a log line. */
export const REDACTED_PATHS = [
  '*.apiKey', '*.api_key', '*.token', '*.password', '*.secret', '*.authorization', '*.Authorization',
  '*.credentials', 'headers["x-api-key"]', 'headers.authorization', '*.headers.authorization', '*.headers["x-api-key"]',
  '*.headers["X-Subscription-Token"]', 'apiKey', 'token', 'password', 'secret', 'credentials',
];

export function createLogger(options: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      name: options.name ?? 'skrya',
      level: options.level ?? 'info',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { pid: process.pid },
      serializers: { err: stdSerializers.err },
    },
    options.destination ?? destination(2),
  );
}
