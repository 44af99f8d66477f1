import shippedTiers from './authority-tiers.json' with { type: 'json' };
import { buildAuthorityIndex, type AuthorityIndex } from './authority.ts';

/**
 * The authority tiers shipped with Skrya. Linted at import: a domain listed twice fails every
 * process loudly at start-up instead of scoring by file order. Its shape is checked against the
 * schema's type by the type checker and by the schema itself in authority.test.ts, not at each
 * start: the ranking then loads no zod (a third of a `skrya rank` reading thread's start).
 */
export const SHIPPED_AUTHORITY: AuthorityIndex = buildAuthorityIndex(shippedTiers);
