/**
 * The learned half of injection screening: a logistic regression over hashed word, character and
 * CJK n-grams that reads a page one passage at a time (a sentence-sized chunk, and each pair of
 * neighbouring chunks) and reports the most suspicious passage. Before reading, escapes written as
 * text (`\u200b`, `\u5ffd`, `&#8203;`) are decoded and the text is normalized like the rules see it
 * (NFKC, lower case, invisible characters gone, Latin look-alikes folded) plus a fold of Chinese
 * variant characters that pass for common ones.
 *
 * Trained on the train and validation splits of the generated corpus (corpus/generate-corpus.ts):
 * passages that overlap a planted payload are positive, passages of benign pages and of the
 * untouched parts of injected pages are negative. Separation on new wording grows with the number
 * of families seen (scripts/diagnose-generalization.ts: a third, two thirds and all of the train
 * families give validation AUC 0.948, 0.959, 0.968 with the second round of train-only families),
 * so the shipped model learns from both splits. A small share of the real-text corpus
 * (real-text/: Debian documentation by other people, benign) joins training, and all of its
 * validation passages bound the threshold. So do a quarter of the passages of other people's
 * jailbreak prompts (real-text/outside-injections.ts, promptfoo's data) of the train and validation
 * families, as injections. Its operating point is chosen on out-of-family
 * scores: validation scored by a model trained on train, never on what a model saw; the test split
 * is never read here. The weights are built into the model cache on first use
 * (learned/model-cache.ts), keyed by a hash of this recipe and of the sources that define it.
 */
import { growArray } from '../arrays/grow-array.ts';
import { bucketOf, featureBuckets, featureNames, forEachFeatureBucket, toVector, type FeatureRecipe } from '../learned/features.ts';
import { packArtifact, train, unpackArtifact, type LinearModel, type TrainOptions } from '../learned/logistic.ts';
import { loadOrBuild, modelKey } from '../learned/model-cache.ts';
import { fnv1a, type Split } from '../learned/random.ts';
import { generateInjectionCorpus, type GeneratedItem } from './corpus/generate-corpus.ts';
import { normalizeText } from './normalize-text.ts';
import { outsideExtraPage, outsideInjectionCorpus } from './real-text/outside-injections.ts';
import { realTextCorpus, realTextOrigin } from './real-text/real-text-corpus.ts';
import type { RealTextSource } from './real-text/sources.ts';

type RealTextOrigin = RealTextSource['origin'];
const REAL_TEXT_ORIGINS: readonly RealTextOrigin[] = ['debian', 'npm'];

export interface InjectionRecipe {
  version: number;
  features: FeatureRecipe;
  training: TrainOptions;
  /** Chunks shorter than this are joined to the next one. */
  minChunk: number;
  maxChunk: number;
  /** Limits on the out-of-family false-positive rates the calibration must respect while maximizing recall. */
  maxValidationFpr: number;
  maxValidationHardFpr: number;
  /**
   * The same limit on the real-text corpus's validation passages (documentation by other people),
   * on each origin apart: the few hundred npm passages about prompts and chat APIs would otherwise
   * be outvoted by the Debian manuals.
   */
  maxValidationRealTextFpr: number;
  /**
   * Share of the real-text corpus's passages (real-text/real-text-corpus.ts) of each origin that
   * join training as benign passages, taken by a hash of their ids; all of its validation passages
   * bound the threshold.
   */
  realTextShare: Record<RealTextOrigin, number>;
  /**
   * Minimum evidence: a passage with fewer distinct features than `features` (a title of two or
   * three words has three to five) loses `penalty` log-odds in proportion to what it lacks, so a
   * few words cannot alone carry a page to quarantine.
   */
  shortPassage: { features: number; penalty: number };
  /**
   * Items per prompt of other people's jailbreak prompts (real-text/outside-injections.ts) that
   * join training from the train (and, for the shipped model, validation) families: 0 none, 1 the
   * prompt as-is, 2 also the prompt in the middle of a benign page, each more a further page.
   */
  outsideInjectionItems: number;
  /** Share of those items' injection passages that join training, taken by a hash (a long prompt has a dozen). */
  outsidePassageShare: number;
  /** Splits the shipped model learns from. */
  trainSplits: readonly Split[];
  /** Splits whose items, each scored by a model trained on the other training splits, place the threshold. */
  calibrationSplits: readonly Split[];
}

export const INJECTION_RECIPE: InjectionRecipe = {
  version: 5,
  // Measured on validation (recall at the limits below), first corpus: word 1-2 + CJK 1-3 grams
  // 0.45; adding character 3-4 grams 0.33, 3-5 grams 0.40, word 1-3 grams 0.38. Character n-grams
  // fit the train families' wording too closely. Again with the train-only families (recall at
  // FPR ≤ 0.03 / AUC, threshold placed on validation): positives weighted 2 (the first recipe)
  // 0.583 / 0.935; equal class weights 0.617 / 0.938 (kept); L2 1e-6 or 1e-5 the same as 1e-7;
  // 3 epochs 0.550; word 1-3 grams 0.587; word 1 + CJK 1-2 grams 0.567. Capacity and
  // regularization barely move it: the families seen do.
  features: { bits: 18, charNgrams: [], wordNgrams: [1, 2], cjkNgrams: [1, 2, 3] },
  training: { epochs: 6, learningRate: 0.15, l2: 1e-7, seed: 13, classWeights: [1, 1] },
  minChunk: 24,
  maxChunk: 320,
  maxValidationFpr: 0.03,
  maxValidationHardFpr: 0.08,
  maxValidationRealTextFpr: 0.03,
  // npm run choose:injection-recipe (validation recall at the limits, 520 validation injections, so
  // 0.01 is five of them), Debian manuals alone: share 0 → 0.662 (the real-text limit binds), 0.01 →
  // 0.710, 0.03 → 0.683, 0.1 → 0.621, 1 → 0.485: more real text teaches that imperatives to people
  // are benign, and those words carry recall on unseen payload families. With the npm documentation
  // of LLM SDKs (183 validation passages, each origin bound to FPR ≤ 0.03 apart), one origin swept
  // with the other held: npm 0.03 with Debian 0.01, then Debian 0 → 0.663, 0.01 → 0.700, 0.02 →
  // 0.712, 0.03 → 0.696, 0.1 → 0.635, then npm (Debian 0.02) 0 → 0.656, 0.01 → 0.673, 0.02 → 0.662,
  // 0.03 → 0.712, 0.05 → 0.671, 0.1 → 0.673, 1 → 0.629. The recipe before them (Debian 0.01, npm
  // documentation neither trained on nor bounding the threshold): 0.710 with 0.044 of the npm
  // validation passages flagged; this one: 0.712 and 0.016. Neighbouring shares differ by up to ten
  // injections: the peak is partly luck of which passages the hash draws.
  // Short-passage rule (the strongest without losing validation recall): every rule is within two
  // injections of none (0.713); features 12, penalty 6 keeps 0.713.
  realTextShare: { debian: 0.02, npm: 0.03 },
  shortPassage: { features: 12, penalty: 6 },
  // npm run choose:injection-recipe -- outside (mean of five training seeds; generated validation
  // recall / recall on the validation families' jailbreak prompts): none 0.703 / 0.297; every
  // prompt's every passage costs generated recall (1 item 0.683, 3 items 0.663, 9 items 0.612), as
  // the npm documentation about users, models and "you are a … assistant" rises towards the
  // threshold; a quarter of the passages keeps it: 1 item 0.723 / 0.860, 2 items 0.715 / 0.867.
  outsideInjectionItems: 1,
  outsidePassageShare: 0.25,
  trainSplits: ['train', 'validation'],
  // Validation alone, scored by a model trained on train: since train grew to ~150 payload and ~80
  // hard-negative families, the reverse fold (a model of validation's dozen families scoring train)
  // is far weaker than the shipped model and would set the threshold for it (pooled recall 0.51).
  calibrationSplits: ['validation'],
};

/** Sources whose change makes a cached model stale. */
const MODEL_SOURCES = [
  'domain/screening/learned-model.ts',
  'domain/screening/normalize-text.ts',
  'domain/screening/corpus/generate-corpus.ts',
  'domain/screening/corpus/payload-families.ts',
  'domain/screening/corpus/train-only-payloads.ts',
  'domain/screening/corpus/train-only-hard-negatives.ts',
  'domain/screening/corpus/host-families.ts',
  'domain/screening/real-text/sources.ts',
  'domain/screening/real-text/outside-injections.ts',
  'domain/screening/real-text/real-text-corpus.ts',
  'domain/screening/real-text/markdown-text.ts',
  'domain/screening/real-text/roff-text.ts',
  'domain/text/html.ts',
  'domain/learned/features.ts',
  'domain/learned/logistic.ts',
  'domain/learned/random.ts',
];

export interface Chunk {
  start: number;
  end: number;
}

const ZH_VARIANTS: Record<string, string> = { 畧: '略', 今: '令', 糸: '系', 岀: '出', 戸: '户', 説: '说', 給: '给', 務: '务', 規: '规', 則: '则', 揩: '指', 亓: '示', 歬: '前', 乏: '之', 耍: '要', 尗: '求', 宻: '密' };
const ZH_VARIANT_PATTERN = new RegExp(`[${Object.keys(ZH_VARIANTS).join('')}]`, 'g');
const ESCAPES = /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|&#(\d{1,7});|&#x([0-9a-fA-F]{1,6});|&(quot|amp|lt|gt|nbsp);/g;
const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', nbsp: ' ' };
const PLAIN_ASCII_WITHOUT_ESCAPES = /^[\t\n\r\x20-\x25\x27-\x5b\x5d-\x7e]*$/;

/** The text the model reads for a passage. */
export function modelText(raw: string): string {
  // Plain ASCII without escapes or entities: decoding and normalizing come down to lower-casing.
  if (PLAIN_ASCII_WITHOUT_ESCAPES.test(raw)) return raw.toLowerCase();
  const decoded = raw.replace(ESCAPES, (whole, u?: string, x?: string, dec?: string, hex?: string, entity?: string) => {
    const code = u !== undefined ? parseInt(u, 16) : x !== undefined ? parseInt(x, 16) : dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : -1;
    if (entity !== undefined) return ENTITIES[entity] ?? whole;
    return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
  // 今 is an everyday character: it only folds to 令 after 指 (指今 → 指令).
  return normalizeText(decoded).text.replace(ZH_VARIANT_PATTERN, (char, offset: number, text: string) => (char === '今' && text[offset - 1] !== '指' ? char : (ZH_VARIANTS[char] ?? char)));
}

/**
 * Where a passage may end: after 。！？； or a line break wherever they stand, after . ! ? ; only
 * before white space or the end (not in 3.14 or a URL). Found by the regular expression engine:
 * chunking reads every character of every field, and a loop over them in JavaScript cost several
 * times as much.
 */
const PASSAGE_END = /[\n。！？；]|[.!?;](?=\s|$)/g;
const WHITESPACE = /\s/;

/** /\s/ (the set String.prototype.trim removes) on one UTF-16 unit, without a one-character string for ASCII. */
function isWhitespace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return WHITESPACE.test(text[index]!);
}

/** text.slice(start, end).trim() !== '' without the slice. */
function hasNonWhitespace(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) if (!isWhitespace(text, index)) return true;
  return false;
}

/** Sentence-sized passages of a field: split after sentence ends and at line breaks, short ones joined. */
export function chunkText(text: string, recipe: Pick<InjectionRecipe, 'minChunk' | 'maxChunk'> = INJECTION_RECIPE): Chunk[] {
  const chunks: Chunk[] = [];
  const { minChunk, maxChunk } = recipe;
  // Each piece with text joins the chunk before it while that one is short and the two fit in maxChunk.
  const addPiece = (start: number, end: number) => {
    if (!hasNonWhitespace(text, start, end)) return;
    const last = chunks[chunks.length - 1];
    if (last !== undefined && last.end - last.start < minChunk && end - last.start <= maxChunk) last.end = end;
    else chunks.push({ start, end });
  };
  let start = 0;
  PASSAGE_END.lastIndex = 0;
  for (;;) {
    const match = PASSAGE_END.exec(text);
    const end = match === null ? text.length : match.index + 1;
    // A stretch with no end in it is cut every maxChunk characters.
    for (; end - start > maxChunk; start += maxChunk) addPiece(start, start + maxChunk);
    addPiece(start, end);
    if (match === null) return chunks;
    start = end;
  }
}

export interface Passage {
  field: string;
  start: number;
  end: number;
  buckets: Set<number>;
  /** A pair's second chunk: its buckets count once more where the first chunk lacks them. */
  second?: Set<number>;
}

/** All buckets of a passage (a pair's union). */
export function passageBuckets(passage: Passage): Set<number> {
  return passage.second === undefined ? passage.buckets : new Set([...passage.buckets, ...passage.second]);
}

/** Every chunk of every field, and each pair of neighbouring chunks in a field. */
export function passagesOf(fields: ReadonlyArray<readonly [string, string]>, recipe: InjectionRecipe = INJECTION_RECIPE): Passage[] {
  const passages: Passage[] = [];
  for (const [field, text] of fields) {
    const chunks = chunkText(text, recipe).map((chunk) => ({ field, ...chunk, buckets: featureBuckets(modelText(text.slice(chunk.start, chunk.end)), recipe.features) }));
    chunks.forEach((chunk, index) => {
      passages.push(chunk);
      const next = chunks[index + 1];
      if (next !== undefined) passages.push({ field, start: chunk.start, end: next.end, buckets: chunk.buckets, second: next.buckets });
    });
  }
  return passages;
}

export interface InjectionModel {
  model: LinearModel;
  /** Added to the model's log-odds so the validation operating point lands on the quarantine threshold. */
  shift: number;
  meta: InjectionModelMeta;
}

export interface InjectionModelMeta {
  key: string;
  recipe: InjectionRecipe;
  /** The passage probability (before shift) chosen on out-of-family scores. */
  operatingThreshold: number;
  /** Rates at that threshold over the out-of-family scores of the calibration splits. */
  validation: { recall: number; falsePositiveRate: number; hardFalsePositiveRate: number; realTextFalsePositiveRate: Record<RealTextOrigin, number>; outsideRecall: number };
  trainedOn: { items: number; passages: number };
}

export interface PassageScore {
  /** Log-odds of the most suspicious passage (unshifted). */
  logit: number;
  passage: Passage | null;
}

/**
 * weights[·, 1] − weights[·, 0]: a binary model's log-odds contribution per bucket, computed once
 * per model. Held as float32 when every difference is one exactly (in the trained model the two
 * classes' weights are exact opposites, so each difference is twice a float32): the same values in
 * half the memory, and the table is read at random, so its size is what those reads cost.
 */
const DIFFERENCES = new WeakMap<LinearModel, { weights: Float32Array | Float64Array; bias: number }>();

function differencesOf(model: LinearModel): { weights: Float32Array | Float64Array; bias: number } {
  let entry = DIFFERENCES.get(model);
  if (entry === undefined) {
    const exact = new Float64Array(model.dimensions);
    for (let bucket = 0; bucket < model.dimensions; bucket++) exact[bucket] = (model.weights[bucket * 2 + 1] ?? 0) - (model.weights[bucket * 2] ?? 0);
    const narrow = Float32Array.from(exact);
    entry = { weights: narrow.every((weight, bucket) => weight === exact[bucket]) ? narrow : exact, bias: (model.bias[1] ?? 0) - (model.bias[0] ?? 0) };
    DIFFERENCES.set(model, entry);
  }
  return entry;
}

/** A passage's log-odds from the sum of its buckets' weights and their count, less the short-passage penalty. */
function passageLogit(bias: number, short: InjectionRecipe['shortPassage']): (sum: number, count: number) => number {
  return (sum, count) => (count === 0 ? bias : bias + sum / Math.sqrt(count)) - (count < short.features ? (short.penalty * (short.features - count)) / short.features : 0);
}

/**
 * The log-odds of every passage without building vectors: a passage's vector is binary and
 * unit-length over its buckets, so its score is bias + Σ w / √n; a pair adds its second chunk's
 * buckets the first does not have.
 */
export function worstPassage(model: LinearModel, passages: readonly Passage[], recipe: Pick<InjectionRecipe, 'shortPassage'> = INJECTION_RECIPE): PassageScore {
  const { weights, bias } = differencesOf(model);
  const logitOf = passageLogit(bias, recipe.shortPassage);
  let best: PassageScore = { logit: -Infinity, passage: null };
  for (const passage of passages) {
    let sum = 0;
    let count = passage.buckets.size;
    for (const bucket of passage.buckets) sum += weights[bucket] ?? 0;
    if (passage.second !== undefined) {
      for (const bucket of passage.second) {
        if (passage.buckets.has(bucket)) continue;
        sum += weights[bucket] ?? 0;
        count++;
      }
    }
    const logit = logitOf(sum, count);
    if (logit > best.logit) best = { logit, passage };
  }
  return best.passage === null ? { logit: -20, passage: null } : best;
}

/**
 * The distinct buckets of one chunk: an open-addressing set small enough to stay in a core's
 * first-level cache, emptied by moving to a new generation instead of clearing it. Deduplicating
 * here instead of by a stamp next to each bucket's weight keeps the 2^18-bucket weight table
 * read-only and read once per distinct bucket.
 */
class BucketSet {
  private keys = new Int32Array(1024);
  private generations = new Uint32Array(1024);
  private generation = 1;
  private size = 0;
  /** Multiplicative hashing: the top bits of bucket × 2^32/φ pick the first slot. */
  private shift = 22;

  clear(): void {
    this.size = 0;
    if (++this.generation === 0xffffffff) {
      this.generations.fill(0);
      this.generation = 1;
    }
  }

  /** Adds `bucket`; false when it was already in. */
  add(bucket: number): boolean {
    const { keys, generations, generation } = this;
    const mask = keys.length - 1;
    for (let slot = Math.imul(bucket, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      if (generations[slot] !== generation) {
        keys[slot] = bucket;
        generations[slot] = generation;
        if (++this.size * 2 > keys.length) this.grow();
        return true;
      }
      if (keys[slot] === bucket) return false;
    }
  }

  has(bucket: number): boolean {
    const { keys, generations, generation } = this;
    const mask = keys.length - 1;
    for (let slot = Math.imul(bucket, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      if (generations[slot] !== generation) return false;
      if (keys[slot] === bucket) return true;
    }
  }

  private grow(): void {
    const { keys, generations, generation } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.generations = new Uint32Array(keys.length * 2);
    this.shift -= 1;
    this.size = 0;
    for (let slot = 0; slot < keys.length; slot++) if (generations[slot] === generation) this.add(keys[slot]!);
  }
}

// Scratch space of the scoring path: each chunk's distinct buckets in first-seen order, their
// weights, and whether the chunk before held them too; the sets of this chunk and the one before.
let chunkBuckets = new Int32Array(4096);
let chunkWeights = new Float64Array(4096);
let inChunkBefore = new Uint8Array(4096);
let chunkSet = new BucketSet();
let chunkBeforeSet = new BucketSet();
// Per chunk of the field being scored: where its distinct buckets start (and the next one's), and
// their weights' sum. Kept between calls: two new typed arrays a field cost 3-4 % of worstPassageOf's time.
let chunkOffsets = new Int32Array(256);
let chunkSums = new Float64Array(256);

function growScratch(): void {
  const size = chunkBuckets.length * 2;
  chunkBuckets = growArray(chunkBuckets, size);
  chunkWeights = growArray(chunkWeights, size);
  inChunkBefore = growArray(inChunkBefore, size);
}

/**
 * A field the model reads: its name, its text and, optionally, the text lower-cased when it is
 * plain ASCII without escapes (the screener has it already; otherwise the model tells and lowers).
 */
export type ModelField = readonly [name: string, text: string, plainLowered?: string];

/**
 * worstPassage(model, passagesOf(fields, recipe)) without building a Set per passage: each chunk's
 * distinct buckets are kept in first-seen order (a Set's iteration order), so every sum adds the
 * same weights in the same order and the scores are the same to the last bit. The weights of a
 * chunk's buckets are read in one loop after its text is hashed: the reads miss the cache (the
 * table is a megabyte or more), and back to back the processor overlaps those misses. A pair's second chunk
 * marks which of its buckets the first held, so pairs need no lookups of their own. A chunk whose
 * text came earlier in the item (a feed's HTML repeats its text, a snippet the start of the page)
 * takes the earlier one's buckets instead of reading its text again.
 */
export function worstPassageOf(model: LinearModel, fields: ReadonlyArray<ModelField>, recipe: InjectionRecipe = INJECTION_RECIPE): { logit: number; passage: { field: string; start: number; end: number } | null } {
  const { weights, bias } = differencesOf(model);
  let bestLogit = -Infinity;
  let best: { field: string; start: number; end: number } | null = null;
  const logitOf = passageLogit(bias, recipe.shortPassage);
  // Each chunk text read so far and where in the scratch arrays its distinct buckets are: an item
  // has a few dozen chunks, so a scan comparing lengths first costs less than hashing every text
  // into a Map.
  const readTexts: string[] = [];
  const readBounds: number[] = [];
  let used = 0;
  const addNew = (bucket: number) => {
    if (!chunkSet.add(bucket)) return;
    if (used === chunkBuckets.length) growScratch();
    chunkBuckets[used++] = bucket;
  };
  for (const [field, text, plainLowered] of fields) {
    const chunks = chunkText(text, recipe);
    // A plain field's chunks are plain too: lower-cased once, not chunk by chunk (modelText).
    const lowered = plainLowered ?? (PLAIN_ASCII_WITHOUT_ESCAPES.test(text) ? text.toLowerCase() : null);
    // Distinct buckets of chunk i are at [offsets[i], offsets[i + 1]) of the scratch arrays.
    if (chunks.length + 1 > chunkOffsets.length) {
      chunkOffsets = growArray(chunkOffsets, chunks.length + 1);
      chunkSums = growArray(chunkSums, chunks.length);
    }
    const offsets = chunkOffsets;
    const sums = chunkSums;
    offsets[0] = used;
    for (let index = 0; index < chunks.length; index++) {
      const chunk = chunks[index]!;
      const emptied = chunkBeforeSet;
      chunkBeforeSet = chunkSet;
      chunkSet = emptied;
      chunkSet.clear();
      // A field's first chunk has no chunk before it.
      if (index === 0) chunkBeforeSet.clear();
      const from = used;
      const raw = text.slice(chunk.start, chunk.end);
      let earlier = readTexts.length - 1;
      while (earlier >= 0 && (readTexts[earlier]!.length !== raw.length || readTexts[earlier] !== raw)) earlier--;
      if (earlier < 0) {
        if (lowered === null) forEachFeatureBucket(modelText(raw), recipe.features, addNew);
        else forEachFeatureBucket(lowered, recipe.features, addNew, chunk.start, chunk.end);
        for (let at = from; at < used; at++) chunkWeights[at] = weights[chunkBuckets[at]!]!;
        readTexts.push(raw);
        readBounds.push(from, used);
      } else {
        const earlierFrom = readBounds[earlier * 2]!;
        const earlierTo = readBounds[earlier * 2 + 1]!;
        while (used + earlierTo - earlierFrom > chunkBuckets.length) growScratch();
        chunkBuckets.copyWithin(from, earlierFrom, earlierTo);
        chunkWeights.copyWithin(from, earlierFrom, earlierTo);
        used += earlierTo - earlierFrom;
        for (let at = from; at < used; at++) chunkSet.add(chunkBuckets[at]!);
      }
      let sum = 0;
      for (let at = from; at < used; at++) {
        sum += chunkWeights[at]!;
        inChunkBefore[at] = chunkBeforeSet.has(chunkBuckets[at]!) ? 1 : 0;
      }
      offsets[index + 1] = used;
      sums[index] = sum;
    }
    for (let index = 0; index < chunks.length; index++) {
      const chunk = chunks[index]!;
      const count = offsets[index + 1]! - offsets[index]!;
      const single = logitOf(sums[index]!, count);
      if (single > bestLogit) {
        bestLogit = single;
        best = { field, start: chunk.start, end: chunk.end };
      }
      const next = chunks[index + 1];
      if (next === undefined) continue;
      // The pair adds the next chunk's buckets this chunk lacks, after this chunk's own.
      let sum = sums[index]!;
      let pairCount = count;
      for (let at = offsets[index + 1]!; at < offsets[index + 2]!; at++) {
        if (inChunkBefore[at] === 1) continue;
        sum += chunkWeights[at]!;
        pairCount++;
      }
      const pair = logitOf(sum, pairCount);
      if (pair > bestLogit) {
        bestLogit = pair;
        best = { field, start: chunk.start, end: next.end };
      }
    }
  }
  return best === null ? { logit: -20, passage: null } : { logit: bestLogit, passage: best };
}

/** The features of a passage that pushed it most towards "injection", strongest first. */
export function topFeatures(model: LinearModel, text: string, recipe: InjectionRecipe, count = 6): Array<{ feature: string; weight: number }> {
  const seen = new Map<string, number>();
  for (const name of featureNames(modelText(text), recipe.features)) {
    if (seen.has(name)) continue;
    const bucket = bucketOf(name, recipe.features.bits);
    seen.set(name, (model.weights[bucket * 2 + 1] ?? 0) - (model.weights[bucket * 2] ?? 0));
  }
  return [...seen].filter(([, weight]) => weight > 0).sort((a, b) => b[1] - a[1]).slice(0, count).map(([feature, weight]) => ({ feature, weight: Math.round(weight * 1000) / 1000 }));
}

const overlap = (a: Chunk, b: readonly [number, number]) => Math.max(0, Math.min(a.end, b[1]) - Math.max(a.start, b[0]));

/** Labelled passages of generated items: 1 overlaps a payload, 0 touches none, ambiguous ones left out. */
export function trainingPassages(items: readonly GeneratedItem[], recipe: InjectionRecipe = INJECTION_RECIPE): Array<{ vector: ReturnType<typeof toVector>; label: number }> {
  const examples: Array<{ vector: ReturnType<typeof toVector>; label: number }> = [];
  for (const item of items) {
    const outside = outsideExtraPage(item) !== null;
    for (const passage of passagesOf([['title', item.title], ['content', item.content]], recipe)) {
      let label = 0;
      if (passage.field === 'title') label = item.titleIsPayload ? 1 : 0;
      else if (item.spans.length > 0) {
        const covered = Math.max(...item.spans.map((span) => overlap(passage, span)));
        if (covered > 0) label = covered >= 0.3 * (passage.end - passage.start) || item.spans.some((span) => overlap(passage, span) >= 0.6 * (span[1] - span[0])) ? 1 : -1;
      }
      if (label === 1 && outside && fnv1a(`${item.id}:${passage.start}:${passage.end}`) / 2 ** 32 >= recipe.outsidePassageShare) continue;
      if (label >= 0) examples.push({ vector: toVector(passageBuckets(passage)), label });
    }
  }
  return examples;
}

export function itemLogit(model: LinearModel, item: { title: string; content: string }, recipe: InjectionRecipe = INJECTION_RECIPE): number {
  return worstPassage(model, passagesOf([['title', item.title], ['content', item.content]], recipe), recipe).logit;
}

export interface ScoredItem {
  logit: number;
  label: 'benign' | 'injection';
  hard: boolean;
  /** The origin of a passage of the real-text corpus; null for a generated page. */
  realText: RealTextOrigin | null;
  /** One of other people's jailbreak prompts (as-is or in a page), kept apart from the generated injections' recall. */
  outside: boolean;
}

/**
 * The lowest passage threshold (log-odds) whose validation false-positive rates stay within the
 * recipe's limits (generated benign pages, their hard negatives, real-text passages): as much
 * recall as those limits allow.
 */
export function chooseThreshold(scored: readonly ScoredItem[], recipe: InjectionRecipe): number {
  const benign = scored.filter((entry) => entry.label === 'benign' && entry.realText === null);
  const hard = benign.filter((entry) => entry.hard);
  const real = REAL_TEXT_ORIGINS.map((origin) => scored.filter((entry) => entry.realText === origin));
  const limits: Array<[readonly ScoredItem[], number]> = [[benign, recipe.maxValidationFpr], [hard, recipe.maxValidationHardFpr], ...real.map((list): [readonly ScoredItem[], number] => [list, recipe.maxValidationRealTextFpr])];
  const candidates = [...new Set([...benign, ...real.flat()].map((entry) => entry.logit))].sort((a, b) => b - a);
  let threshold = (candidates[0] ?? 0) + 1e-6;
  for (const candidate of candidates) {
    const next = candidate - 1e-6;
    if (limits.some(([list, limit]) => list.filter((entry) => entry.logit >= next).length / Math.max(1, list.length) > limit)) break;
    threshold = next;
  }
  // Never below 0: a passage must look more like an injection than not.
  return Math.max(threshold, 0);
}

/** Quarantine threshold on the combined 0..1 risk the shift maps the operating point to. */
export const QUARANTINE_RISK = 0.6;
const logit = (p: number) => Math.log(p / (1 - p));

/**
 * Out-of-family item scores for the calibration: each calibration split is scored by a model
 * trained on the other training splits, so no score comes from a model that saw the item's
 * families (the test split is never used).
 */
export function outOfFamilyScores(corpus: readonly GeneratedItem[], recipe: InjectionRecipe): ScoredItem[] {
  return recipe.calibrationSplits.flatMap((heldOut) => scoreItems(modelWithout(corpus, recipe, heldOut), evaluatedItems(corpus, heldOut), recipe));
}

/** The items of a split that are read to measure it: all but the outside prompts' extra training pages. */
export function evaluatedItems(corpus: readonly GeneratedItem[], split: Split): GeneratedItem[] {
  return corpus.filter((item) => item.split === split && (outsideExtraPage(item) ?? 0) === 0);
}

/** A model trained on the recipe's training splits except `heldOut`: it never saw that split's families. */
export function modelWithout(corpus: readonly GeneratedItem[], recipe: InjectionRecipe, heldOut: Split): LinearModel {
  return train(trainingPassages(fitItems(corpus, recipe).filter((item) => item.split !== heldOut), recipe), 2, recipe.features.bits, recipe.training);
}

/** The items a model learns from: the recipe's training splits, real-text passages at the recipe's share, outside prompts in the recipe's number of items. */
function fitItems(corpus: readonly GeneratedItem[], recipe: InjectionRecipe): GeneratedItem[] {
  return corpus.filter((item) => {
    if (!recipe.trainSplits.includes(item.split)) return false;
    const origin = realTextOrigin(item);
    if (origin !== null) return fnv1a(item.id) / 2 ** 32 < recipe.realTextShare[origin];
    const extra = outsideExtraPage(item);
    // as-is is the first item, the middle-of-page one the second, extra page n the (n + 2)th.
    return extra === null || (item.carrier === 'as-is' ? 0 : extra + 1) < recipe.outsideInjectionItems;
  });
}

export function scoreItems(model: LinearModel, items: readonly GeneratedItem[], recipe: InjectionRecipe): ScoredItem[] {
  return items.map((item) => ({ logit: itemLogit(model, item, recipe), label: item.label, hard: item.difficulty === 'hard', realText: realTextOrigin(item), outside: outsideExtraPage(item) !== null }));
}

/** The items a recipe learns from and calibrates on: the generated corpus, the real-text corpus and the outside injections (all splits; test is never read here). */
export function trainingCorpus(): GeneratedItem[] {
  const generated = generateInjectionCorpus();
  return [...generated, ...realTextCorpus(), ...outsideInjectionCorpus(generated)];
}

export function trainInjectionModel(recipe: InjectionRecipe = INJECTION_RECIPE, key = 'adhoc'): { model: LinearModel; meta: InjectionModelMeta; shift: number } {
  const corpus = trainingCorpus();
  const trainItems = fitItems(corpus, recipe);
  const scored = outOfFamilyScores(corpus, recipe);
  const threshold = chooseThreshold(scored, recipe);
  const examples = trainingPassages(trainItems, recipe);
  const model = train(examples, 2, recipe.features.bits, recipe.training);
  const positives = scored.filter((entry) => entry.label === 'injection' && !entry.outside);
  const benign = scored.filter((entry) => entry.label === 'benign' && entry.realText === null);
  const hard = benign.filter((entry) => entry.hard);
  const real = (origin: RealTextOrigin) => scored.filter((entry) => entry.realText === origin);
  const rate = (list: readonly ScoredItem[]) => Math.round((list.filter((entry) => entry.logit >= threshold).length / Math.max(1, list.length)) * 10_000) / 10_000;
  const meta: InjectionModelMeta = {
    key,
    recipe,
    operatingThreshold: 1 / (1 + Math.exp(-threshold)),
    validation: { recall: rate(positives), falsePositiveRate: rate(benign), hardFalsePositiveRate: rate(hard), realTextFalsePositiveRate: { debian: rate(real('debian')), npm: rate(real('npm')) }, outsideRecall: rate(scored.filter((entry) => entry.outside)) },
    trainedOn: { items: trainItems.length, passages: examples.length },
  };
  return { model, meta, shift: logit(QUARANTINE_RISK) - threshold };
}

let cached: InjectionModel | undefined;

/** The trained model, read from the cache or built into it (a few seconds, once per recipe). */
export function injectionModel(): InjectionModel {
  if (cached !== undefined) return cached;
  const key = injectionModel.keyOf();
  const { bytes } = loadOrBuild('injection', key, () => {
    const { model, meta, shift } = trainInjectionModel(INJECTION_RECIPE, key);
    return packArtifact({ ...meta, shift }, model);
  });
  const { meta, model } = unpackArtifact(bytes);
  const header = meta as InjectionModelMeta & { shift: number };
  cached = { model, shift: header.shift, meta: header };
  return cached;
}
injectionModel.keyOf = (): string => modelKey(INJECTION_RECIPE, MODEL_SOURCES);

export interface ModelVerdictPart {
  /** Probability that the most suspicious passage is an injection (uncalibrated model output). */
  probability: number;
  /** The probability moved so the validation operating point sits at the quarantine threshold. */
  risk: number;
  /** The passage that drove it, in original field coordinates. */
  passage: { field: string; span: { start: number; end: number }; text: string } | null;
  features: Array<{ feature: string; weight: number }>;
}

export function scoreWithModel(fields: ReadonlyArray<ModelField>, model: InjectionModel = injectionModel()): ModelVerdictPart {
  const worst = worstPassageOf(model.model, fields, model.meta.recipe);
  const probability = 1 / (1 + Math.exp(-worst.logit));
  const risk = 1 / (1 + Math.exp(-(worst.logit + model.shift)));
  const round = (value: number) => Math.round(value * 1000) / 1000;
  if (worst.passage === null) return { probability: round(probability), risk: round(risk), passage: null, features: [] };
  const { field, start, end } = worst.passage;
  const text = fields.find(([name]) => name === field)?.[1].slice(start, end) ?? '';
  return {
    probability: round(probability),
    risk: round(risk),
    passage: { field, span: { start, end }, text: text.length > 300 ? `${text.slice(0, 300)}…` : text },
    features: risk >= 0.35 ? topFeatures(model.model, text, model.meta.recipe) : [],
  };
}
