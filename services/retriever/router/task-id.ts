/**
 * Task ids `SR-<8 hex>`. With a seed the id is the first 8 hex digits of
 * sha256(seed, canonical input), so tests and replays get the same id for the same request;
 * without one it is the first 8 hex digits of a random UUID, as spec 004 writes it.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RouteInput } from './route-input.ts';

/** JSON with object keys sorted, so equal inputs hash equally whatever order their keys came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function routeTaskId(input: RouteInput, seed?: string, newUuid: () => string = randomUUID): string {
  if (seed === undefined) return `SR-${newUuid().replaceAll('-', '').slice(0, 8).toLowerCase()}`;
  const digest = createHash('sha256').update(seed).update('\n').update(canonicalJson(input)).digest('hex');
  return `SR-${digest.slice(0, 8)}`;
}
