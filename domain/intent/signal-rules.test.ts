import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../schemas/ingest.ts';
import { detectSignals } from './detect-signals.ts';
import { pickIntent } from './pick-intent.ts';
import { SPECIFICITY_ORDER } from './intent-profiles.ts';
import { SIGNAL_RULES } from './signal-rules.ts';

const HAN = /\p{Script=Han}/u;

describe('the signal table', () => {
  it.each(INTENTS)('has English and Chinese signals for %s', (intent) => {
    const rules = SIGNAL_RULES.filter((rule) => rule.intent === intent);
    expect(rules.some((rule) => HAN.test(rule.pattern.source))).toBe(true);
    expect(rules.some((rule) => /[a-z]{3}/u.test(rule.pattern.source.replace(/\\[a-z]/gu, '')))).toBe(true);
  });

  it('only uses comparison signals as separators', () => {
    expect(SIGNAL_RULES.filter((rule) => rule.role === 'separator').every((rule) => rule.intent === 'comparison')).toBe(true);
  });

  it('orders every intent exactly once by specificity', () => {
    expect([...SPECIFICITY_ORDER].sort()).toEqual([...INTENTS].sort());
    expect(SPECIFICITY_ORDER.at(-1)).toBe('exploratory');
  });
});

describe('pickIntent', () => {
  it.each<[string, Array<{ intent: (typeof INTENTS)[number]; strength: 1 | 2 | 3 }>, string]>([
    ['no signal', [], 'exploratory'],
    ['the stronger signal wins over specificity', [{ intent: 'comparison', strength: 1 }, { intent: 'tutorial', strength: 3 }], 'tutorial'],
    ['equal strength: the more specific wins', [{ intent: 'status', strength: 2 }, { intent: 'news', strength: 2 }], 'news'],
    ['equal strength: comparison over status', [{ intent: 'status', strength: 3 }, { intent: 'comparison', strength: 3 }], 'comparison'],
    ['an explicit exploratory signal still counts', [{ intent: 'exploratory', strength: 3 }, { intent: 'factual', strength: 2 }], 'exploratory'],
  ])('%s', (_case, signals, expected) => {
    expect(pickIntent(signals)).toBe(expected);
  });
});

describe('detectSignals', () => {
  it('reports only the framing words of a rule with groups, so the topic in between stays', () => {
    const query = 'what does idempotent mean in REST';
    const meaning = detectSignals(query).find((signal) => signal.signal === 'what does X mean');
    expect(meaning?.framing.map((span) => query.slice(...span))).toEqual(['what does', 'mean']);
    expect(meaning && query.slice(...meaning.span)).toBe('what does idempotent mean');
  });

  it('matches acronym rules on the query as typed, not lower-cased', () => {
    expect(detectSignals('WAL in databases').some((signal) => signal.intent === 'factual')).toBe(true);
    expect(detectSignals('wal in databases').some((signal) => signal.intent === 'factual')).toBe(false);
  });

  it('keeps word boundaries: "snows" is not news, "github copilot" is not a resource', () => {
    expect(detectSignals('why it snows').some((signal) => signal.intent === 'news')).toBe(false);
    expect(detectSignals('github copilot tips').some((signal) => signal.intent === 'resource')).toBe(false);
    expect(detectSignals('set up 2fa on github').some((signal) => signal.intent === 'resource')).toBe(false);
  });

  it.each<[string, string]>([
    ['machine learning pipeline', 'tutorial'],
    ['deep learning frameworks', 'tutorial'],
    ['electron app memory', 'news'],
    ['vs code extensions', 'comparison'],
    ['daily backup cron', 'news'],
  ])('does not take a cue from a word that merely contains one: "%s" has no %s signal', (query, intent) => {
    expect(detectSignals(query).some((signal) => signal.intent === intent)).toBe(false);
  });

  it('still finds the cues those words resemble', () => {
    expect(pickIntent(detectSignals('learn rust'))).toBe('tutorial');
    expect(pickIntent(detectSignals('learning kubernetes as a beginner'))).toBe('tutorial');
    expect(pickIntent(detectSignals('electoin results'))).toBe('news');
    expect(pickIntent(detectSignals('react vs vue'))).toBe('comparison');
    expect(pickIntent(detectSignals('ai daily digest'))).toBe('news');
  });

  it('reads a yes/no question about what one may, can or must do as factual, but not one that asks how', () => {
    expect(pickIntent(detectSignals('Can I make and sell Debian CDs?'))).toBe('factual');
    expect(pickIntent(detectSignals('Is it possible to run two mail servers on one host?'))).toBe('factual');
    expect(pickIntent(detectSignals('我可以制作或售卖 Debian 的 CD 吗？'))).toBe('factual');
    const sayCanI = detectSignals('Can I make and sell Debian CDs?').find((signal) => signal.signal === 'can I X? (yes or no)');
    expect(sayCanI?.framing.map((span) => 'Can I make and sell Debian CDs?'.slice(...span))).toEqual(['Can I']);
    expect(detectSignals('Can I safely remove an old kernel package, and if so, how?').some((signal) => signal.intent === 'factual')).toBe(false);
    expect(pickIntent(detectSignals('我可以切换到 testing 吗？如果可以，怎么做？'))).toBe('tutorial');
    expect(pickIntent(detectSignals('can i parse json without jq'))).not.toBe('factual');
  });

  it('reads where to find, get or ask as a resource request, but not where a thing is kept', () => {
    expect(pickIntent(detectSignals('Where can I find the fetchmail sources?'))).toBe('resource');
    expect(pickIntent(detectSignals('Where to ask for help'))).toBe('resource');
    expect(pickIntent(detectSignals('How can R be obtained?'))).toBe('resource');
    expect(pickIntent(detectSignals('到何处求助'))).toBe('resource');
    expect(pickIntent(detectSignals('在哪里可以下载 Debian 镜像'))).toBe('resource');
    expect(detectSignals('where is the raft data directory').some((signal) => signal.intent === 'resource')).toBe(false);
  });

  it('takes a heading that opens with what one does as a hint of a task, and Chinese task verbs likewise', () => {
    expect(pickIntent(detectSignals('Backing Up with rsync'))).toBe('tutorial');
    expect(pickIntent(detectSignals('Using lintian'))).toBe('tutorial');
    expect(pickIntent(detectSignals('编译内核'))).toBe('tutorial');
    expect(pickIntent(detectSignals('使用其他镜像'))).toBe('tutorial');
    expect(detectSignals('Tunneling').some((signal) => signal.intent === 'tutorial')).toBe(false);
    expect(detectSignals('Something does not add up').some((signal) => signal.signal === 'doing X (a task heading)')).toBe(false);
    expect(detectSignals('操作系统的历史').some((signal) => signal.intent === 'tutorial')).toBe(false);
    expect(detectSignals('使用场景').some((signal) => signal.intent === 'tutorial')).toBe(false);
  });

  it('does not read 消息队列 (message queue) as news', () => {
    expect(detectSignals('Kafka 消息队列原理').some((signal) => signal.intent === 'news')).toBe(false);
  });
});
