import { describe, expect, it } from 'vitest';
import { createInternedColumn } from './interned-column.ts';

describe('createInternedColumn', () => {
  it('gives back each item\'s value, null and undefined apart from every string', () => {
    const column = createInternedColumn<string | null | undefined>();
    const values = ['brave', null, 'exa', 'brave', undefined, '', null, 'exa'];
    for (const value of values) column.push(value);
    expect(values.map((_value, index) => column.at(index))).toEqual(values);
  });

  it('keeps its values past many growths, however many are distinct', () => {
    const column = createInternedColumn<string>();
    const values = Array.from({ length: 5000 }, (_value, index) => (index % 7 === 0 ? `unique-${index}` : `shared-${index % 3}`));
    for (const value of values) column.push(value);
    expect(values.every((value, index) => column.at(index) === value)).toBe(true);
  });
});
