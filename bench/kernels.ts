/**
 * Pure kernels on one core, in operations per second (median of five timed repetitions after a
 * warm-up): Avro through the serde and through bare avsc (with the decode broken into its parts),
 * canonicalUrl, screenItem on 2 KB items, scoreItem, dedupeItems over 100k items, and the
 * scorer's steps in microseconds per item on the stage bench's own messages (where its time goes).
 */
import { randomBytes } from 'node:crypto';
import avro from 'avsc';
import { loadConfig } from '../runtime/config.ts';
import { createRegistry } from '../runtime/kafka.ts';
import { createSerde } from '../runtime/serde.ts';
import type { RawResult, ScoredResult } from '../schemas/messages.ts';
import { dedupeItems, type DedupeCandidate } from '../domain/dedupe/dedupe-items.ts';
import { detectLanguage } from '../domain/text/language.ts';
import { builtinParsers, normalizeResponse } from '../services/scorer/normalize-response.ts';
import { createResultsScorer } from '../services/scorer/score-results.ts';
import { candidatesOf } from '../services/scorer/steps/normalize.ts';
import { DEFAULT_SCORING_MODEL } from '../domain/scoring-model/default-model.ts';
import { generateIntentQueries } from '../domain/intent/corpus/generate-queries.ts';
import { classifyQuery } from '../domain/intent/classify-query.ts';
import { scoreWithModel } from '../domain/screening/learned-model.ts';
import { RULES_ONLY } from '../domain/screening/scoring-model.ts';
import { screenItem, type ScreenInput } from '../domain/screening/screen-item.ts';
import { canonicalUrl } from '../domain/urls/canonical-url.ts';
import { createItemScorer, scoreItem, type ScorableItem, type ScoringContext } from '../domain/ranking/score-item.ts';
import { TOPICS, TOPIC_NAMES, valueSubject, type TopicName } from '../topics/topics.ts';
import { deleteSubjects } from './kafka-bench.ts';
import { measureRate, measureRateAsync, measureRatesByTurns, type RateSample } from './measure.ts';
import { HOSTS, INJECTIONS, paragraph, sentence } from './payloads.ts';
import { createRandom, pick } from '../domain/learned/random.ts';
import { generateRuns, rawMessagesOf, scoreInProcess, stepResponses } from './stages.ts';

export interface KernelFigures {
  avro: Record<string, { bytes: number; serdeEncode: RateSample; serdeDecode: RateSample; avscEncode: RateSample; avscDecode: RateSample; avscDecodeCachedResolver: RateSample; readerTypePerCall: RateSample; zodContract: RateSample }>;
  canonicalUrl: RateSample;
  screenItem: RateSample & { itemChars: number };
  /** The classifiers' cost split out: screening by the rules alone, the learned model alone, and classifyQuery warm. */
  classifiers: { screenRulesOnly: RateSample; screenModelOnly: RateSample; classifyQuery: RateSample & { queries: number } };
  scoreItem: RateSample;
  itemScorerBulk: RateSample;
  dedupeItems: RateSample & { items: number; clusters: number };
  scorerSteps: ScorerStepCosts;
}

/** Microseconds per result on one core, each step measured alone on the same provider responses. */
export interface ScorerStepCosts {
  results: number;
  /** Provider response → results: JSON/feed parsing, HTML to text, language detection. */
  normalize: number;
  /** Of which at most: language detection with no declared language (ELD on the first 400 characters); normalize takes a declared language first. */
  languageDetection: number;
  /** Results → scored items: validation, canonical URL, hashing, screening, scoring. */
  scoreResults: number;
  /** Of which: prompt-injection screening (title, content, summary and the entry's HTML). */
  screening: number;
  /** One scored-results message through serde.encode (zod contract + Avro). */
  encodeOutput: number;
}

const SCORED_SAMPLE = 'scored-results (one item)';

async function avroFigures(): Promise<KernelFigures['avro']> {
  const config = loadConfig({ ...process.env, SKRYA_TOPIC_PREFIX: `bench.kernels.${randomBytes(4).toString('hex')}.` });
  const naming = { prefix: config.SKRYA_TOPIC_PREFIX };
  const serde = await createSerde({ registry: createRegistry(config), registryUrl: config.SKRYA_REGISTRY_URL, naming, topics: TOPIC_NAMES });
  try {
    const raw = rawMessagesOf(generateRuns('kernels', 2, 2));
    const rawResponse = raw[0]!.value;
    const scoredItem = scoreInProcess(raw).scored.find((message) => message.value.kind === 'ITEM')!.value;
    // Operation counts keep every repetition well under a second on a busy 2-core machine.
    const samples: Array<[string, TopicName, RawResult | ScoredResult, number]> = [
      ['raw-results (one provider response)', 'raw-results', rawResponse, 1_000],
      [SCORED_SAMPLE, 'scored-results', scoredItem, 2_000],
    ];
    const figures: KernelFigures['avro'] = {};
    for (const [name, topic, value, operations] of samples) {
      const wire = await serde.encode(topic, value as never);
      const type = avro.Type.forSchema(TOPICS[topic].avro as avro.Schema);
      const body = type.toBuffer(value);
      const resolver = type.createResolver(avro.Type.forSchema(TOPICS[topic].avro as avro.Schema));
      const repeat = (count: number, work: () => void) => () => {
        for (let index = 0; index < count; index++) work();
      };
      const repeatAsync = (count: number, work: () => Promise<unknown>) => async () => {
        for (let index = 0; index < count; index++) await work();
      };
      // Fewer operations for the slow path (the reader type rebuilt per call).
      const slow = Math.ceil(operations / 10);
      figures[name] = {
        bytes: wire.length,
        serdeEncode: await measureRateAsync(repeatAsync(operations, () => serde.encode(topic, value as never)), { operations }),
        serdeDecode: await measureRateAsync(repeatAsync(operations, () => serde.decode(topic, wire)), { operations }),
        avscEncode: measureRate(repeat(operations, () => type.toBuffer(value)), { operations }),
        avscDecode: measureRate(repeat(operations, () => type.fromBuffer(body)), { operations }),
        avscDecodeCachedResolver: measureRate(repeat(operations, () => type.fromBuffer(body, resolver)), { operations }),
        // What the registry client does on every decode that passes a reader schema: build the type, compare it.
        readerTypePerCall: measureRate(repeat(slow, () => avro.Type.forSchema(TOPICS[topic].avro as avro.Schema).equals(type)), { operations: slow }),
        zodContract: measureRate(repeat(operations, () => TOPICS[topic].contract.parse(value)), { operations }),
      };
    }
    return figures;
  } finally {
    await deleteSubjects(config.SKRYA_REGISTRY_URL, TOPIC_NAMES.map((topic) => valueSubject(naming, topic)));
  }
}

const URL_VARIANTS = [
  'https://www.example.com/news/kafka-4-1?utm_source=rss&utm_medium=feed',
  'http://Example.com:80/news/kafka-4-1/#comments',
  'https://kafka.apache.org/blog/4-1?b=2&a=1&fbclid=abc123',
  'https://github.com/apache/kafka/releases/tag/4.1.0',
  'https://news.ycombinator.com/item?id=41234567',
  'https://www-example-com.cdn.ampproject.org/c/s/www.example.com/amp/story',
  'https://medium.com/@author/a-long-article-title-about-streaming-3f2a1b?source=rss----1',
  'https://例子.测试/路径/文章?q=a%26b',
  'https://blog.cloudflare.com//2026/11/some%2dpost/',
  'mailto:someone@example.com',
];

function screenInputs(count: number, chars: number): ScreenInput[] {
  const random = createRandom(11);
  return Array.from({ length: count }, (_unused, index) => {
    let content = paragraph(random, chars - 260);
    if (index % 50 === 0) content = `${content.slice(0, 800)} ${pick(random, INJECTIONS)} ${content.slice(800)}`;
    return { id: `it-${index}`, title: sentence(random).slice(0, 90), content, summary: paragraph(random, 200), url: `https://${pick(random, HOSTS)}/news/${index}` };
  });
}

function dedupeCandidates(count: number): DedupeCandidate[] {
  const random = createRandom(23);
  const candidates: DedupeCandidate[] = [];
  for (let index = 0; index < count; index++) {
    const previous = candidates[Math.floor(random() * candidates.length)];
    const roll = random();
    if (previous && roll < 0.05) {
      // The same page through another provider, with tracking parameters.
      candidates.push({ ...previous, id: `it-${index}`, provider: 'exa', url: `${previous.url}?utm_source=exa`, score: random() });
    } else if (previous && roll < 0.1) {
      // A syndicated copy: another site, nearly the same text.
      candidates.push({ ...previous, id: `it-${index}`, provider: 'rss', url: `https://${pick(random, HOSTS)}/syndicated/${index}`, text: `${previous.text} Reposted.`, score: random() });
    } else {
      candidates.push({ id: `it-${index}`, url: `https://${pick(random, HOSTS)}/news/${index}`, provider: 'brave', title: sentence(random).slice(0, 90), text: paragraph(random, 600), score: random() });
    }
  }
  return candidates;
}

export async function benchKernels(): Promise<KernelFigures> {
  const avroResults = await avroFigures();

  const urlRounds = 2_000;
  const canonical = measureRate(() => {
    for (let round = 0; round < urlRounds; round++) for (const url of URL_VARIANTS) canonicalUrl(url);
  }, { operations: urlRounds * URL_VARIANTS.length });

  const itemChars = 2_048;
  const inputs = screenInputs(500, itemChars);
  const screen = measureRate(() => {
    for (const input of inputs) screenItem(input);
  }, { operations: inputs.length });
  const screenRulesOnly = measureRate(() => {
    for (const input of inputs) screenItem(input, { scoring: RULES_ONLY });
  }, { operations: inputs.length });
  const screenModelOnly = measureRate(() => {
    for (const input of inputs) scoreWithModel([['title', input.title], ['content', input.content ?? '']]);
  }, { operations: inputs.length });
  const queries = generateIntentQueries().filter((row) => row.split === 'test').map((row) => row.query);
  const now = new Date('2026-12-01T00:00:00Z');
  classifyQuery(queries[0] ?? 'kafka', { now });
  const classify = measureRate(() => {
    for (const query of queries) classifyQuery(query, { now });
  }, { operations: queries.length });

  const context: ScoringContext = { intent: 'status', subQueries: ['kafka release upgrade latency', 'kafka kraft controller release'], windowEnd: '2026-11-30T00:00:00Z', boostDomains: [] };
  const random = createRandom(5);
  const scorables: ScorableItem[] = Array.from({ length: 2_000 }, (_unused, index) => ({
    url: `https://${pick(random, HOSTS)}/news/${index}`,
    title: sentence(random).slice(0, 90),
    snippet: paragraph(random, 220),
    content: paragraph(random, 1_500),
    published_at: new Date(Date.parse('2026-11-30T00:00:00Z') - Math.floor(random() * 5 * 86_400_000)).toISOString(),
  }));
  const oneOff = measureRate(() => {
    for (const item of scorables) scoreItem(item, context);
  }, { operations: scorables.length });
  const scoreOf = createItemScorer(context);
  const bulk = measureRate(() => {
    for (const item of scorables) scoreOf(item);
  }, { operations: scorables.length });

  const candidates = dedupeCandidates(100_000);
  // Warm up on a tenth: a full warm-up pass would cost as much as a timed one.
  dedupeItems(candidates.slice(0, 10_000));
  let clusters = 0;
  const dedupe = measureRate(() => {
    clusters = dedupeItems(candidates).length;
  }, { operations: candidates.length, warmups: 0, repetitions: 3 });

  const scorerSteps = scorerStepCosts(1_000_000 / avroResults[SCORED_SAMPLE]!.serdeEncode.median);

  return {
    avro: avroResults,
    canonicalUrl: canonical,
    screenItem: { ...screen, itemChars },
    classifiers: { screenRulesOnly, screenModelOnly, classifyQuery: { ...classify, queries: queries.length } },
    scoreItem: oneOff,
    itemScorerBulk: bulk,
    dedupeItems: { ...dedupe, items: candidates.length, clusters },
    scorerSteps,
  };
}

/** Passes over the step's results in each timed repetition (median of 5): a pass over 400 results is only 20-80 ms. */
const STEP_TIMED_PASSES = 10;
/**
 * Repetitions before timing, STEP_TIMED_PASSES passes each. V8 is still compiling the scorer's code
 * through the first passes (the first takes 3-5× a warmed one, the next ones 1.5-2×): with one pass
 * of warm-up the row measured that compilation, not the per-result cost of a running scorer, which
 * is past it after its first ~16,000 results (40 passes).
 */
const STEP_WARMUP_REPETITIONS = 4;

/** The stage bench's inputs (generated runs of two responses), each scorer step timed on its own, the steps by turns. */
function scorerStepCosts(encodeOutput: number): ScorerStepCosts {
  const responses = stepResponses();
  const parsers = builtinParsers();
  const normalized = responses.map((message) => ({ message, results: normalizeResponse(message, parsers) }));
  const results = normalized.flatMap((entry) => entry.results);
  const candidates = normalized.map(({ message, results: batch }) => ({ message, batch: candidatesOf(message, batch) }));
  const scoreResults = createResultsScorer(DEFAULT_SCORING_MODEL);
  const passes = (pass: () => void) => () => {
    for (let repeat = 0; repeat < STEP_TIMED_PASSES; repeat++) pass();
  };
  const rates = measureRatesByTurns({
    normalize: passes(() => {
      for (const message of responses) normalizeResponse(message, parsers);
    }),
    languageDetection: passes(() => {
      for (const result of results) detectLanguage([result.title, result.snippet, result.content].join(' '));
    }),
    scoreResults: passes(() => {
      for (const { message, batch } of candidates) scoreResults(message, batch);
    }),
    screening: passes(() => {
      for (const result of results) screenItem({ id: 'bench', title: result.title, content: result.content, summary: result.snippet, url: result.url, html: result.html });
    }),
  }, { operations: STEP_TIMED_PASSES * results.length, warmups: STEP_WARMUP_REPETITIONS });
  const perResult = (sample: RateSample) => 1_000_000 / sample.median;
  return {
    results: results.length,
    normalize: perResult(rates.normalize),
    languageDetection: perResult(rates.languageDetection),
    scoreResults: perResult(rates.scoreResults),
    screening: perResult(rates.screening),
    encodeOutput,
  };
}
