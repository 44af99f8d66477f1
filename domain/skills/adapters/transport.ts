import type { AdapterRequest } from '../types.ts';
import type { SkillDeclaration } from '../declaration.ts';
import type { RateLimitKey } from './credential-rate-limiter.ts';

/** One skill call, as the adapter and its transports see it. */
export interface CallContext {
  skill: string;
  declaration: SkillDeclaration;
  /** sha256 of the validated input: the key of mock recordings. */
  inputKey: string;
  tenant: string;
  runId: string;
  /** Folder local skills may read; null = local reads are refused. */
  localRoot: string | null;
  signal: AbortSignal;
  /** The credential's rate-limit key: API calls on one key share its provider rate. Null/absent = not limited. */
  rateKey?: RateLimitKey | null;
}

/** What a transport got back, before the shared adapter base decides whether it is a success. */
export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
  contentType: string;
  /** Where the body came from after redirects; null when not a URL. */
  url: string | null;
}

/**
 * Does the IO of one attempt. Throws SkryaError for what is not an HTTP status:
 * BLOCKED_URL, BAD_RESPONSE (oversize, undecodable), ADAPTER_TIMEOUT, PROVIDER_UNAVAILABLE (connection failed).
 */
export interface Transport {
  send(request: AdapterRequest, call: CallContext, signal: AbortSignal): Promise<TransportResponse>;
}
