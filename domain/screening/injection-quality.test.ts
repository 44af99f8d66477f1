import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateInjectionCorpus } from './corpus/generate-corpus.ts';
import { parseLabelledCorpus, SCREEN_LAYOUTS } from './evaluate.ts';
import { outsideInjectionCorpus } from './real-text/outside-injections.ts';
import { realTextCorpus, realTextOrigin } from './real-text/real-text-corpus.ts';
import { scannerBenchmarkCorpus } from './real-text/scanner-benchmark.ts';
import { screeningQuality } from './quality-report.ts';
import { screenItem } from './screen-item.ts';
import baseline from './quality-baseline.json' with { type: 'json' };

// Resolved like scripts/eval-injection.ts: <repo>/../shared/corpora/injection-dev.jsonl.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpusPath = resolve(repoRoot, '..', 'shared', 'corpora', 'injection-dev.jsonl');
const corpusPresent = existsSync(corpusPath);

describe('injection screening quality on untouched sets (quality-baseline.json)', () => {
  it('does not regress on the generated test split (families never trained or tuned on)', { timeout: 120_000 }, () => {
    const quality = screeningQuality(generateInjectionCorpus().filter((item) => item.split === 'test'), screenItem);
    const all = quality.find((row) => row.lang === 'all');
    const expected = baseline.generatedTest;
    expect(all?.recall.rate, `missed ${JSON.stringify(all?.missedKinds)}`).toBeGreaterThanOrEqual(expected.recall);
    expect(all?.falsePositiveRate.rate, `false alarms ${JSON.stringify(all?.falseAlarmKinds)}`).toBeLessThanOrEqual(expected.falsePositiveRate);
    expect(all?.hardFalsePositiveRate.rate).toBeLessThanOrEqual(expected.hardNegativeFalsePositiveRate);
    for (const [lang, floor] of Object.entries(expected.perLanguageRecall)) {
      const row = quality.find((entry) => entry.lang === lang);
      expect(row?.recall.rate, `${lang} missed ${JSON.stringify(row?.missedKinds)}`).toBeGreaterThanOrEqual(floor);
    }
  });

  it('does not regress on the generated test split laid out as the feed reader hands items on (visible text, a snippet of it, the markup as HTML)', { timeout: 120_000 }, () => {
    const all = screeningQuality(generateInjectionCorpus().filter((item) => item.split === 'test'), (input) => screenItem(SCREEN_LAYOUTS.feed(input))).find((row) => row.lang === 'all')!;
    const expected = baseline.feedLayoutTest;
    const benign = all.confusion.benign;
    // One sentence sent as text, snippet and markup is one piece of evidence: benign pages are accepted as often as their text alone.
    const notAccepted = (benign.downweight + benign.quarantine + benign.drop) / (benign.accept + benign.downweight + benign.quarantine + benign.drop);
    expect(all.recall.rate, `missed ${JSON.stringify(all.missedKinds)}`).toBeGreaterThanOrEqual(expected.recall);
    expect(all.falsePositiveRate.rate, `false alarms ${JSON.stringify(all.falseAlarmKinds)}`).toBeLessThanOrEqual(expected.falsePositiveRate);
    expect(notAccepted).toBeLessThanOrEqual(expected.benignNotAccepted);
  });

  it('reads as the text alone when the text is sent as a feed entry\'s HTML paragraphs too: the markup\'s copy is no second reading', { timeout: 120_000 }, () => {
    const layout = (input: Parameters<typeof screenItem>[0]) => screenItem(SCREEN_LAYOUTS['feed-paragraphs'](input));
    const expected = baseline.feedParagraphsTest;
    const generated = screeningQuality(generateInjectionCorpus().filter((item) => item.split === 'test'), layout).find((row) => row.lang === 'all')!;
    const benign = generated.confusion.benign;
    const notAccepted = (benign.downweight + benign.quarantine + benign.drop) / (benign.accept + benign.downweight + benign.quarantine + benign.drop);
    expect(generated.recall.rate, `missed ${JSON.stringify(generated.missedKinds)}`).toBeGreaterThanOrEqual(expected.recall);
    expect(generated.falsePositiveRate.rate, `false alarms ${JSON.stringify(generated.falseAlarmKinds)}`).toBeLessThanOrEqual(expected.falsePositiveRate);
    expect(notAccepted).toBeLessThanOrEqual(expected.benignNotAccepted);
    const realText = screeningQuality(realTextCorpus().filter((item) => item.split === 'test'), layout).find((row) => row.lang === 'all')!;
    expect(realText.falsePositiveRate.rate, `false alarms ${JSON.stringify(realText.falseAlarmKinds)}`).toBeLessThanOrEqual(expected.realTextFalsePositiveRate);
  });

  it('does not regress on the real-text test split (documentation by other people, documents never trained or tuned on), per language and per origin', { timeout: 180_000 }, () => {
    const test = realTextCorpus().filter((item) => item.split === 'test');
    const quality = screeningQuality(test, screenItem);
    for (const [lang, ceiling] of Object.entries(baseline.realTextTest.falsePositiveRate)) {
      const row = quality.find((entry) => entry.lang === lang);
      expect(row?.falsePositiveRate.rate, `${lang} false alarms ${JSON.stringify(row?.falseAlarmKinds)}`).toBeLessThanOrEqual(ceiling);
    }
    // npm documentation of LLM SDKs is a tenth of the split: its rate is held apart so the Debian manuals cannot hide it.
    for (const [origin, ceiling] of Object.entries(baseline.realTextTest.perOriginFalsePositiveRate)) {
      const all = screeningQuality(test.filter((item) => realTextOrigin(item) === origin), screenItem).find((row) => row.lang === 'all');
      expect(all?.falsePositiveRate.trials, origin).toBeGreaterThan(0);
      expect(all?.falsePositiveRate.rate, `${origin} false alarms ${JSON.stringify(all?.falseAlarmKinds)}`).toBeLessThanOrEqual(ceiling);
    }
  });

  it('does not regress on other people\'s jailbreak prompts of the test families (promptfoo\'s data, never trained or tuned on), alone and inside a benign page', { timeout: 120_000 }, () => {
    const items = outsideInjectionCorpus(generateInjectionCorpus()).filter((item) => item.split === 'test');
    for (const [carrier, floor] of Object.entries(baseline.promptfooTest.recall)) {
      const all = screeningQuality(items.filter((item) => item.carrier === carrier), screenItem).find((row) => row.lang === 'all');
      expect(all?.recall.trials, carrier).toBeGreaterThan(15);
      expect(all?.recall.rate, `${carrier} missed ${JSON.stringify(all?.missedKinds)}`).toBeGreaterThanOrEqual(floor);
    }
  });

  it('does not regress on the labelled prompts agent-security-scanner-mcp ships (other people\'s, a test set only), alone and inside a benign page', { timeout: 120_000 }, () => {
    const items = scannerBenchmarkCorpus(generateInjectionCorpus());
    for (const [carrier, floor] of Object.entries(baseline.scannerTest.recall)) {
      const all = screeningQuality(items.filter((item) => item.carrier === carrier), screenItem).find((row) => row.lang === 'all');
      expect(all?.recall.trials, carrier).toBe(20);
      expect(all?.recall.rate, `${carrier} missed ${JSON.stringify(all?.missedKinds)}`).toBeGreaterThanOrEqual(floor);
      expect(all?.falsePositiveRate.rate, `${carrier} false alarms ${JSON.stringify(all?.falseAlarmKinds)}`).toBeLessThanOrEqual(baseline.scannerTest.falsePositiveRate);
    }
  });

  it.skipIf(!corpusPresent)(corpusPresent ? 'does not regress on ../shared/corpora (an outside set, no longer tuned on)' : `SKIPPED: labelled corpus not found at ${corpusPath}`, { timeout: 120_000 }, () => {
    const all = screeningQuality(parseLabelledCorpus(readFileSync(corpusPath, 'utf8')), screenItem).find((row) => row.lang === 'all');
    const expected = baseline.shared;
    expect(all?.recall.rate, `missed ${JSON.stringify(all?.missedKinds)}`).toBeGreaterThanOrEqual(expected.recall);
    expect(all?.falsePositiveRate.rate, `false alarms ${JSON.stringify(all?.falseAlarmKinds)}`).toBeLessThanOrEqual(expected.falsePositiveRate);
    expect(all?.hardFalsePositiveRate.rate).toBeLessThanOrEqual(expected.hardNegativeFalsePositiveRate);
  });
});
