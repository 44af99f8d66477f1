import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStopWord, tokenize } from '../text/tokenize.ts';
import { hammingDistance, popcount32, simhash64, type Fingerprint } from './simhash.ts';

const contentTokens = (text: string) => tokenize(text).filter((token) => !isStopWord(token));
const fingerprint = (text: string) => simhash64(contentTokens(text));

const TITLE = 'Kubernetes v1.30: Uwubernetes';
const ARTICLE = `${TITLE}. Kubernetes 1.30 is here. The release brings 45 enhancements: 17 graduating to stable, 18 to beta and 10 new alpha features. Highlights include structured authorization configuration, recursive read-only mounts and the new node log query feature, which lets administrators read service logs without logging into the node.`;

describe('simhash64', () => {
  it.each([
    ['the same text', ARTICLE, 0, 0],
    ['a syndication line in front', `Originally published on the CNCF blog. ${ARTICLE}`, 1, 6],
    ['a newsletter footer behind', `${ARTICLE} Read more on our website. Subscribe to our newsletter.`, 1, 6],
    ['two phrases edited', ARTICLE.replace('45 enhancements', 'forty-five enhancements').replace('administrators', 'admins'), 1, 6],
    ['the previous release, same template', 'Kubernetes v1.29: Mandala. Kubernetes 1.29 is here. The release brings 49 enhancements: 11 graduating to stable, 19 to beta and 19 new alpha features. Highlights include KMS v2 encryption at rest, sidecar containers in beta and the new nftables kube-proxy backend for Linux nodes.', 15, 64],
    ['an unrelated release note', 'Rust 1.78 stabilizes diagnostic attributes, asserts unsafe preconditions in debug builds and raises the minimum supported glibc version on Linux targets.', 20, 64],
  ])('%s is %i–%i bits from the article', (_name, text, min, max) => {
    const distance = hammingDistance(fingerprint(ARTICLE), fingerprint(text));
    expect(distance).toBeGreaterThanOrEqual(min);
    expect(distance).toBeLessThanOrEqual(max);
  });

  it('is deterministic and order-sensitive only through its features', () => {
    expect(fingerprint(ARTICLE)).toEqual(fingerprint(ARTICLE));
    expect(simhash64([])).toEqual({ high: 0, low: 0 });
  });

  it('matches a plain per-bit majority count (the bit-sliced counters are only faster)', () => {
    const fnv = (text: string) => {
      let hash = 0x811c9dc5;
      for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
      return hash >>> 0;
    };
    const mix = (value: number) => {
      let hash = value ^ (value >>> 16);
      hash = Math.imul(hash, 0x85ebca6b);
      hash ^= hash >>> 13;
      hash = Math.imul(hash, 0xc2b2ae35);
      return (hash ^ (hash >>> 16)) >>> 0;
    };
    const naive = (tokens: string[]): Fingerprint => {
      const ones = new Array<number>(64).fill(0);
      for (const token of tokens) {
        const hash = fnv(token);
        const [high, low] = [mix(hash), mix((hash ^ 0x9e3779b9) >>> 0)];
        for (let bit = 0; bit < 32; bit++) {
          ones[bit]! += (high >>> bit) & 1;
          ones[32 + bit]! += (low >>> bit) & 1;
        }
      }
      let [high, low] = [0, 0];
      for (let bit = 0; bit < 32; bit++) {
        if (ones[bit]! * 2 > tokens.length) high |= 1 << bit;
        if (ones[32 + bit]! * 2 > tokens.length) low |= 1 << bit;
      }
      return { high: high >>> 0, low: low >>> 0 };
    };
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 }), (tokens) => {
        expect(simhash64(tokens)).toEqual(naive(tokens));
      }),
    );
  });
});

describe('popcount32', () => {
  it.each([
    [0, 0],
    [1, 1],
    [0xffffffff, 32],
    [0x80000001, 2],
  ])('popcount32(%i) = %i', (value, count) => {
    expect(popcount32(value)).toBe(count);
  });
});
