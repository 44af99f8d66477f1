/**
 * Stable error codes. Tests and dead-letter consumers match on these, never on messages.
 * `retriable` says whether doing the same thing again later can succeed.
 */
export const ERROR_CODES = {
  // Message and contract problems: permanent, the message goes to dead-letters.
  UNDECODABLE: { retriable: false },
  UNKNOWN_SCHEMA: { retriable: false },
  SCHEMA_INVALID: { retriable: false },
  OVERSIZED: { retriable: false },
  NORMALIZE_FAILED: { retriable: false },
  // Infrastructure: retried with backoff, the offset is not committed.
  BROKER_UNAVAILABLE: { retriable: true },
  REGISTRY_UNAVAILABLE: { retriable: true },
  // Providers (skill adapters).
  ADAPTER_TIMEOUT: { retriable: true },
  AUTH_FAILED: { retriable: false },
  RATE_LIMITED: { retriable: true },
  QUOTA_EXHAUSTED: { retriable: false },
  EMPTY_RESULTS: { retriable: false },
  BAD_RESPONSE: { retriable: false },
  BLOCKED_URL: { retriable: false },
  CIRCUIT_OPEN: { retriable: true },
  NOT_CONFIGURED: { retriable: false },
  /** A tenant used up its own daily request quota (tenant.json), not a provider's. */
  TENANT_QUOTA_EXCEEDED: { retriable: false },
  /** 5xx or connection failure that outlasted the retries: the provider may recover later. */
  PROVIDER_UNAVAILABLE: { retriable: true },
  // Operator input.
  INVALID_INPUT: { retriable: false },
  INVALID_ID: { retriable: false },
  CONFIG_INVALID: { retriable: false },
  STACK_FAILED: { retriable: false },
  SERVICE_CRASHED: { retriable: false },
  RUN_TIMEOUT: { retriable: false },
  /** A newer owner of a monitor shard fenced this one (a rebalance or a zombie): it must stop firing that shard. */
  SHARD_FENCED: { retriable: false },
  /** A pinned Debian package a training corpus is built from could not be fetched (apt unreachable, version gone). */
  CORPUS_UNAVAILABLE: { retriable: true },
  // The sink's store (runtime/sink-store.ts). Retriable all: the message is fine and must not be
  // dead-lettered; its offset stays uncommitted until the write succeeds.
  /** The bucket did not answer (connection refused, timeout, 5xx). */
  STORAGE_UNAVAILABLE: { retriable: true },
  /** The bucket refused these credentials, or does not exist: an operator has to fix the settings. */
  STORAGE_REFUSED: { retriable: true },
  /** A file changed between the sink's read and its conditional write (another sink wrote it). */
  STORAGE_CONFLICT: { retriable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class SkryaError extends Error {
  readonly code: ErrorCode;
  readonly retriable: boolean;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkryaError';
    this.code = code;
    this.retriable = ERROR_CODES[code].retriable;
    this.details = options.details ?? {};
  }
}

export function isSkryaError(value: unknown): value is SkryaError {
  return value instanceof SkryaError;
}

/** Any thrown value as a message fit for a log line or a dead-letter record. */
export function describeError(value: unknown): string {
  if (value instanceof Error) return value.message;
  return String(value);
}
