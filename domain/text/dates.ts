/**
 * Provider dates as ISO 8601 UTC. Relative ages ("3 days ago") are resolved against the time the
 * response was fetched, which the raw response carries, so re-parsing gives the same answer.
 */
const RELATIVE_AGE = /^(\d+)\s+(second|minute|hour|day|week|month|year)s?\s+ago$/i;

const UNIT_MS: Record<string, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

export function normalizeDate(value: unknown, fetchedAt: string): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  const relative = RELATIVE_AGE.exec(text);
  if (relative) {
    const [, amount = '0', unit = 'day'] = relative;
    const reference = Date.parse(fetchedAt);
    if (Number.isNaN(reference)) return null;
    return new Date(reference - Number(amount) * (UNIT_MS[unit.toLowerCase()] ?? 0)).toISOString();
  }
  // A date-time without a zone (Brave's page_age) is read as UTC, not as the parser's local time.
  const zoneless = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const parsed = Date.parse(zoneless ? `${text}Z` : text);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}
