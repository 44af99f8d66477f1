import { describe, expect, it } from 'vitest';
import { fnv1a } from '../learned/random.ts';
import { createStringNumbers } from './string-numbers.ts';

describe('createStringNumbers', () => {
  it('gives equal strings one number and each new string the next, across the table growing', () => {
    const numbers = createStringNumbers();
    const urls = Array.from({ length: 5000 }, (_url, index) => `https://example.org/post/${index}`);
    expect(urls.map((url) => numbers.numberOf(url, fnv1a(url)))).toEqual(urls.map((_url, index) => index));
    // The same texts again, as new strings: numbered by content, not by identity.
    expect(urls.map((url) => numbers.numberOf(`${url} `.trimEnd(), fnv1a(url)))).toEqual(urls.map((_url, index) => index));
    expect(numbers.numberOf(urls[4321]!, fnv1a(urls[4321]!))).toBe(4321);
    expect(numbers.size).toBe(5000);
  });

  it('keeps strings apart whose hashes are equal', () => {
    const numbers = createStringNumbers();
    const colliding = Array.from({ length: 3000 }, (_text, index) => `text ${index}`);
    // Every string with one hash: only the strings themselves tell them apart.
    expect(colliding.map((text) => numbers.numberOf(text, 7))).toEqual(colliding.map((_text, index) => index));
    expect(colliding.map((text) => numbers.numberOf(text, 7)).reverse()).toEqual(colliding.map((_text, index) => colliding.length - 1 - index));
  });
});
