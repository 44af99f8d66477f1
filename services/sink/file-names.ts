/** Names of the sink's files: derived from message fields only, so the same run always maps to the same names. */

/** 2026-04-25T02:30:00.123Z → 20260425T023000123Z: sortable, and safe in every file system. */
export function compactTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a timestamp: ${iso}`);
  return date.toISOString().replace(/[-:.]/g, '');
}

/** Provider names come from run artifacts, not from users' paths: reduce them to a safe token. */
export function safeToken(name: string): string {
  const token = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
  return token || 'unknown';
}
