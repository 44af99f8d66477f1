import shippedTiers from './authority-tiers.json' with { type: 'json' };
import { buildAuthorityIndex, type AuthorityIndex } from './authority.ts';

/**
 * The authority tiers shipped with Skrya. Built (and linted) at import: a broken shipped file
 * fails every process loudly at start-up instead of scoring with half a table.
 */
export const SHIPPED_AUTHORITY: AuthorityIndex = buildAuthorityIndex(shippedTiers);
