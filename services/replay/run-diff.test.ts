import { describe, expect, it } from 'vitest';
import { diffRun, type OriginalDocument } from './run-diff.ts';

interface Item {
  id: string;
  title: string;
  url: string | null;
  canonical_url: string | null;
  content: string | null;
  summary: string | null;
  verdict: string;
  score: number | null;
}

function item(name: string, overrides: Partial<Item> = {}): Item {
  return { id: `it-${name}`, title: `Title ${name}`, url: `https://example.com/${name}?utm=x`, canonical_url: `https://example.com/${name}`, content: `Body of ${name}`, summary: null, verdict: 'accepted', score: 0.5, ...overrides };
}

const doc = (items: Item[], complete = true) => ({ run_id: 'run-1', items, stats: { complete } });
const found = (items: Item[], complete = true): OriginalDocument => ({ kind: 'found', json: doc(items, complete) });
const RUN = { runId: 'run-1', file: 'normalized/20261130T100000000Z.json' };

describe('diffRun', () => {
  it.each<{ name: string; original: OriginalDocument; replayed: Item[]; counts: Record<string, number>; status?: string }>([
    { name: 'the same items', original: found([item('a'), item('b')]), replayed: [item('b'), item('a')], counts: { new: 0, changed: 0, removed: 0, rescored: 0, unchanged: 2 } },
    { name: 'an item only in the replay', original: found([item('a')]), replayed: [item('a'), item('b')], counts: { new: 1, changed: 0, removed: 0, rescored: 0, unchanged: 1 } },
    { name: 'an item only in the original', original: found([item('a'), item('b')]), replayed: [item('a')], counts: { new: 0, changed: 0, removed: 1, rescored: 0, unchanged: 1 } },
    { name: 'another text', original: found([item('a')]), replayed: [item('a', { content: 'Edited body' })], counts: { new: 0, changed: 1, removed: 0, rescored: 0, unchanged: 0 } },
    { name: 'another id (the scorer hashed text the document trims)', original: found([item('a')]), replayed: [item('a', { id: 'it-other' })], counts: { changed: 1, unchanged: 0 } },
    { name: 'another verdict', original: found([item('a')]), replayed: [item('a', { verdict: 'quarantined' })], counts: { changed: 1, rescored: 0 } },
    { name: 'another score', original: found([item('a')]), replayed: [item('a', { score: 0.7 })], counts: { changed: 0, rescored: 1, unchanged: 0 } },
    { name: 'a score that appears', original: found([item('a', { score: null })]), replayed: [item('a', { score: 0.7 })], counts: { rescored: 1 } },
    { name: 'another verdict and score', original: found([item('a')]), replayed: [item('a', { verdict: 'downweighted', score: 0.3 })], counts: { changed: 1, rescored: 1, unchanged: 0 } },
    { name: 'no original file', original: { kind: 'missing' }, replayed: [item('a')], counts: { original: 0, new: 1 }, status: 'missing' },
    { name: 'an original that is no ingest document', original: { kind: 'found', json: { hello: 'world' } }, replayed: [item('a')], counts: { original: 0, new: 1 }, status: 'unreadable' },
  ])('$name', ({ original, replayed, counts, status }) => {
    const diff = diffRun(RUN, original, doc(replayed));
    expect(diff.counts).toMatchObject(counts);
    expect(diff.original).toBe(status ?? 'found');
    expect(diff.counts.replayed).toBe(replayed.length);
  });

  it('compares the scorer\'s content hash when the documents carry it', () => {
    const withHash = (name: string, hash: string, overrides: Partial<Item> = {}) => ({ ...item(name, overrides), content_hash: hash });
    expect(diffRun(RUN, found([withHash('a', 'h1') as Item]), doc([withHash('a', 'h2') as Item])).changed[0]).toMatchObject({ changes: ['content'], original: { content_hash: 'h1' }, replayed: { content_hash: 'h2' } });
    // Same hash, same id: a display-only difference (quarantine markers) is no content change.
    expect(diffRun(RUN, found([withHash('a', 'h1') as Item]), doc([withHash('a', 'h1', { content: 'sanitized' }) as Item])).counts.changed).toBe(0);
  });

  it('names what changed, with the old and new values', () => {
    const diff = diffRun(RUN, found([item('a'), item('b'), item('gone')]), doc([item('a', { score: 0.9 }), item('b', { verdict: 'downweighted', content: 'New body' }), item('fresh')]));
    expect(diff.rescored).toEqual([{ key: 'https://example.com/a', title: 'Title a', original_score: 0.5, replayed_score: 0.9 }]);
    expect(diff.changed).toHaveLength(1);
    expect(diff.changed[0]).toMatchObject({ key: 'https://example.com/b', changes: ['content', 'verdict'], original: { verdict: 'accepted' }, replayed: { verdict: 'downweighted' } });
    expect(diff.changed[0]!.original.content_hash).not.toBe(diff.changed[0]!.replayed.content_hash);
    expect(diff.removed.map((entry) => entry.key)).toEqual(['https://example.com/gone']);
    expect(diff.new).toEqual([{ key: 'https://example.com/fresh', id: 'it-fresh', title: 'Title fresh', verdict: 'accepted', score: 0.5 }]);
  });

  it('matches by canonical URL, then URL, then id, and numbers repeated keys in document order', () => {
    const noCanonical = item('x', { canonical_url: null });
    const noUrl = item('y', { canonical_url: null, url: null });
    const twin = item('t', { id: 'it-t2', title: 'Twin' });
    const diff = diffRun(RUN, found([noCanonical, noUrl, item('t'), twin]), doc([noCanonical, noUrl, item('t'), twin]));
    expect(diff.counts.unchanged).toBe(4);
    const removed = diffRun(RUN, found([noCanonical, noUrl, item('t'), twin]), doc([]));
    expect(removed.removed.map((entry) => entry.key)).toEqual(['https://example.com/t', 'https://example.com/t#2', 'https://example.com/x?utm=x', 'id:it-y']);
  });

  it('gives the same diff whatever order the items come in', () => {
    const original = [item('a'), item('b', { score: 0.1 }), item('c'), item('d')];
    const replayed = [item('e'), item('b'), item('c', { verdict: 'quarantined' }), item('f')];
    const reference = JSON.stringify(diffRun(RUN, found(original), doc(replayed)));
    expect(JSON.stringify(diffRun(RUN, found([...original].reverse()), doc([...replayed].reverse())))).toBe(reference);
  });

  it('reports whether each side closed complete', () => {
    expect(diffRun(RUN, found([item('a')], true), doc([item('a')], false)).complete).toEqual({ original: true, replayed: false });
    expect(diffRun(RUN, { kind: 'missing' }, doc([item('a')])).complete).toEqual({ original: null, replayed: true });
  });

  it('refuses a replayed document that is not an ingest document (a bug, not an input problem)', () => {
    expect(() => diffRun(RUN, { kind: 'missing' }, { items: 'none' })).toThrow();
  });
});
