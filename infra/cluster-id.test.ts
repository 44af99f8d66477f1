import { describe, expect, it } from 'vitest';
import { newKraftClusterId } from './local-stack.ts';

describe('newKraftClusterId', () => {
  it('gives 22-character base64url ids that never start with "-" (which the storage tool would read as an option)', () => {
    // Without the redraw, 4,000 draws hold an id starting with '-' with probability 1 - (63/64)^4000 > 0.9999999.
    const ids = Array.from({ length: 4000 }, () => newKraftClusterId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
