/** Fields every search skill accepts the same way, so the retriever can call any of them for a capability. */
import { z } from 'zod';
import { freshnessSchema } from '../../../schemas/ingest.ts';

export const searchQuery = z.string().min(1).max(400);
export const searchFreshness = freshnessSchema.optional();
export const domainList = z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a bare domain such as example.com')).max(20);

/** pd/pw/pm/py as a span of days, for providers that take a number or a start date. */
export const FRESHNESS_DAYS = { pd: 1, pw: 7, pm: 31, py: 365 } as const;
