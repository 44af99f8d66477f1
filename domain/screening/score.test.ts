import { describe, expect, it } from 'vitest';
import { scoreHits, type Hit } from './score.ts';

const TECHNIQUES: Record<string, Pick<Hit, 'technique' | 'role'>> = {
  address: { technique: 'ai_address', role: 'carrier' },
  override: { technique: 'instruction_override', role: 'payload' },
  'hidden.comment': { technique: 'hidden_html', role: 'carrier' },
};

const hit = (field: string, rule: string, start: number, weight: number, text = rule): Hit => ({
  rule,
  ...TECHNIQUES[rule]!,
  field,
  span: { start, end: start + 20 },
  text,
  weight,
});

describe('scoreHits: evidence another field repeats counts once', () => {
  const injection = [hit('content', 'address', 10, 0.6), hit('content', 'override', 40, 0.7)];
  const alone = scoreHits(injection);

  it('the same hits in a snippet and in HTML score as the text alone', () => {
    const repeated = [...injection, ...injection.map((entry) => ({ ...entry, field: 'summary' })), ...injection.map((entry) => ({ ...entry, field: 'html', span: { start: entry.span.start + 3, end: entry.span.end + 3 } }))];
    expect(alone).toBeGreaterThan(0);
    expect(scoreHits(repeated)).toBe(alone);
  });

  it('a cut-off copy (part of the evidence, as a snippet ends early) adds nothing', () => {
    expect(scoreHits([...injection, hit('summary', 'address', 10, 0.6)])).toBe(alone);
  });

  it('a copy read with more weight (not quoted there) is the one that counts', () => {
    const quoted = [hit('content', 'override', 40, 0.35)];
    const plain = [hit('html', 'override', 43, 0.7)];
    expect(scoreHits([...quoted, ...plain])).toBe(scoreHits(plain));
  });

  it('evidence only another field holds still raises the score', () => {
    const hiddenInHtml = [hit('html', 'address', 10, 0.6), hit('html', 'override', 40, 0.7), hit('html', 'hidden.comment', 60, 0.45)];
    expect(scoreHits([...injection, ...hiddenInHtml])).toBeGreaterThan(alone);
    // A second cluster of the same field is not a copy, however alike: it is another injected paragraph.
    expect(scoreHits([...injection, ...injection.map((entry) => ({ ...entry, span: { start: entry.span.start + 2000, end: entry.span.end + 2000 } }))])).toBeGreaterThan(alone);
  });
});
