import { hash } from 'node:crypto';
import { SkryaError, isSkryaError } from '../../runtime/errors.ts';
import { parseJsonLine, type LineBatch } from '../json-lines.ts';
import type { Intent, ProviderResult } from '../../schemas/ingest.ts';
import { createItemScorer, type ItemScore } from '../../domain/ranking/score-item.ts';
import type { ScoreWeights } from '../../domain/ranking/intent-weights.ts';
import { createTokenIds, type TokenWords } from '../../domain/text/token-ids.ts';
import { validateItem, type ValidationContext, type ValidationReason } from '../../domain/validation/validate-item.ts';
import { dedupeCandidate, type RankableItem, type ReadItem } from '../../domain/dedupe/rank-items.ts';
import { matchedText, matchKeys } from '../../domain/dedupe/dedupe-items.ts';

/**
 * `skrya rank`'s reading of its input: each line parsed as a provider result, validated as the
 * scorer validates it (spec 000), scored and read for dedupe. Lines are read a batch (a run of
 * whole lines) at a time and the batch's results packed into a few arrays and one string, so a
 * batch can be read on another thread (rank-reading-thread.ts) and handed back cheaply; the
 * ranking takes the batches' items strictly in file order (unpackBatch).
 */

/** A line the pipeline's validation (spec 000) would drop, and why. */
export interface DroppedLine {
  line: number;
  title: string;
  url: string;
  reasons: ValidationReason[];
}

export interface RankInputItem extends RankableItem {
  result: ProviderResult;
  line: number;
}

/** How a rank run validates: as fetched at the window's end, which is also its clock. Made once a run, not once an item. */
export function rankValidationContext(windowEnd: string): ValidationContext {
  return { producerName: 'skrya-rank', fetchedAt: windowEnd, now: new Date(windowEnd) };
}

/**
 * The pipeline's validation of one result, built the way the scorer builds its candidate: an item
 * without a title, without a body (content or snippet) or without anything tracing its source is
 * dropped (returned with its reasons), never ranked.
 */
export function validateForRank(item: RankInputItem, windowEnd: string, context: ValidationContext = rankValidationContext(windowEnd)): DroppedLine | null {
  const { result } = item;
  // The item's own id is passed so validation does not hash one of its own (MISSING_ID is not reported here anyway).
  const validation = validateItem({
    id: item.id,
    title: result.title,
    url: result.url || null,
    source_name: result.source || null,
    published_at: result.published_date,
    fetched_at: windowEnd,
    language: result.language,
    content: result.content,
    summary: result.snippet || null,
    evidence_type: null,
    confidence: null,
  }, context);
  if (validation.outcome !== 'dropped') return null;
  return { line: item.line, title: result.title, url: result.url, reasons: validation.reasons.filter((reason) => reason.code !== 'MISSING_ID') };
}

const PROVIDER_RESULT_SHAPE = `one object like {"url": …, "title": …, "snippet": …, "published_date": …, "source": …}`;

/**
 * One JSONL line as a provider result (null for a blank line), as an item not yet placed in its
 * provider's list; a bad line is INVALID_INPUT naming the line and what is wrong with it.
 */
function parseProviderLine(content: string, lineNumber: number, fileLabel: string): RankInputItem | null {
  const parsedLine = parseJsonLine(content, lineNumber, fileLabel, PROVIDER_RESULT_SHAPE);
  if (parsedLine === null) return null;
  const { result, problems } = readProviderResult(parsedLine.json);
  if (result === null) throw new SkryaError('INVALID_INPUT', `${parsedLine.where} is not a provider result: ${problems.join('; ')}`, { details: { line: lineNumber } });
  const provider = result.source === '' ? 'unknown' : result.source;
  return {
    // Content-derived ids: equal scores break the same way whatever order the lines come in.
    id: hash('sha256', JSON.stringify([result.source, result.url, result.title, result.snippet])).slice(0, 16),
    url: result.url,
    title: result.title,
    snippet: result.snippet,
    content: result.content,
    published_at: result.published_date,
    provider,
    resultList: provider,
    result,
    line: lineNumber,
  };
}

/** The next place in a provider's list: lines of one source are that provider's list, in its order, so the line order is the provider rank. */
function nextListPlace(listLengths: Map<string, number>, provider: string): number {
  const place = (listLengths.get(provider) ?? 0) + 1;
  listLengths.set(provider, place);
  return place;
}

/**
 * One JSONL line as a provider result (null for a blank line); a bad line is INVALID_INPUT naming
 * the line and what is wrong with it. `listLengths` counts each source's lines so far (the provider rank).
 */
export function parseProviderResult(content: string, lineNumber: number, fileLabel: string, listLengths: Map<string, number>): RankInputItem | null {
  const item = parseProviderLine(content, lineNumber, fileLabel);
  if (item !== null) item.providerRank = nextListPlace(listLengths, item.provider);
  return item;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

/**
 * providerResultSchema's reading of a parsed line (absent fields take its defaults, unknown ones are
 * left out), checked by hand: zod on every line was a large share of a 100k-line file's reading,
 * and loading zod a third of a reading thread's start. Null for anything that is not one.
 */
function plainProviderResult(json: unknown): ProviderResult | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { url, title = '', snippet = '', published_date = null, source = '', content = null, language = null, html } = json as Record<string, unknown>;
  if (!isText(url) || !isText(title) || !isText(snippet) || !isTextOrNull(published_date) || !isText(source) || !isTextOrNull(content) || !isTextOrNull(language)) return null;
  if (html !== undefined && !isTextOrNull(html)) return null;
  return { url, title, snippet, published_date, source, content, language, html };
}

/** The fields plainProviderResult reads, and whether null is allowed, for wording what is wrong with a line. */
const PROVIDER_RESULT_FIELDS = [
  ['url', false],
  ['title', false],
  ['snippet', false],
  ['published_date', true],
  ['source', false],
  ['content', true],
  ['language', true],
  ['html', true],
] as const;

/** A value as a message shows it: its kind, and the start of its JSON. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const json = JSON.stringify(value);
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value} (${json.length > 40 ? `${json.slice(0, 40)}…` : json})`;
}

/** Why plainProviderResult refuses a parsed line, in words that say what to fix. */
function providerResultProblems(json: unknown): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return [`a line must be a JSON object, not ${describeValue(json)}`];
  const fields = json as Record<string, unknown>;
  const problems: string[] = [];
  if (fields.url === undefined) problems.push('url is missing: every result needs one (a string)');
  for (const [name, nullable] of PROVIDER_RESULT_FIELDS) {
    const value = fields[name];
    if (value === undefined || typeof value === 'string' || (nullable && value === null)) continue;
    problems.push(`${name} must be a string${nullable ? ' or null' : ''}, not ${describeValue(value)}`);
  }
  return problems;
}

/** A parsed line as a provider result, or every problem that makes it none (rank.test.ts holds both to providerResultSchema's verdict). */
export function readProviderResult(json: unknown): { result: ProviderResult; problems: null } | { result: null; problems: string[] } {
  const result = plainProviderResult(json);
  return result !== null ? { result, problems: null } : { result: null, problems: providerResultProblems(json) };
}

/** Every provider result of a JSONL text, in line order. */
export function parseProviderResults(text: string, fileLabel: string): RankInputItem[] {
  const listLengths = new Map<string, number>();
  const items: RankInputItem[] = [];
  text.split('\n').forEach((content, index) => {
    const item = parseProviderResult(content, index + 1, fileLabel, listLengths);
    if (item !== null) items.push(item);
  });
  return items;
}

/** What a reader needs to know of the run: plain data, so it crosses to a reading thread. */
export interface ReadingSetup {
  label: string;
  intent: Intent | null;
  queries: string[];
  boostDomains: string[];
  windowEnd: string;
}

/** A ReadBatch's text length for a missing text (null), and for a text equal to the one before it. */
const NO_TEXT = -1;
const SAME_AS_BEFORE = -2;

/** Per kept line: where its output fields are in the batch's `rendered` bytes (offset, length), its score's numbers, then its canonical URL's hash (see readBatch). */
const KEPT_NUMBERS = 10;
const KEPT = 1;
const DROPPED = 2;

/**
 * A batch read: for each line that is not blank, in order, whether it was kept or dropped; the
 * kept ones' numbers, texts, tokens (ids in the reader's token table, whose words added since
 * the reader's previous batch are `newWords`) and output fields (renderedFields, one after
 * another in `rendered`), the dropped ones as DroppedLine. `failure` is the first line that could
 * not be read (the batch stops there), as the error it raised.
 */
export interface ReadBatch {
  /** The batch's own bytes, handed back so their buffer can take a later batch. */
  input: Uint8Array<ArrayBuffer>;
  kinds: Uint8Array<ArrayBuffer>;
  numbers: Float64Array<ArrayBuffer>;
  texts: string;
  textLengths: Int32Array<ArrayBuffer>;
  tokens: Int32Array<ArrayBuffer>;
  tokenCounts: Int32Array<ArrayBuffer>;
  rendered: Uint8Array<ArrayBuffer>;
  newWords: string[];
  weights: ScoreWeights | null;
  dropped: DroppedLine[];
  failure: { code: 'INVALID_INPUT'; message: string; line: number } | null;
}

/** The buffers a ReadBatch can hand over to another thread without copying them. */
export function transferables(batch: ReadBatch): ArrayBuffer[] {
  return [batch.input.buffer, batch.kinds.buffer, batch.numbers.buffer, batch.textLengths.buffer, batch.tokens.buffer, batch.tokenCounts.buffer, batch.rendered.buffer];
}

/**
 * Numbers that grow as a batch is read; `done` gives them in an array of their exact size and
 * empties them for the next batch, which reuses their space: a reader allocates only the exact
 * arrays it hands over, not a chain of doublings each batch, freed only when its thread collects.
 */
function growingNumbers<A extends Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(make: (length: number) => A) {
  let values = make(1024);
  let count = 0;
  return {
    push(value: number) {
      if (count === values.length) {
        const larger = make(values.length * 2);
        larger.set(values);
        values = larger;
      }
      values[count++] = value;
    },
    done(): A {
      const exact = values.slice(0, count) as A;
      count = 0;
      return exact;
    },
  };
}

const NEWLINE = 0x0a;

/**
 * The fields of a kept line's output line (rank.ts) that come from the line itself, as JSON members
 * without braces. Rendered while the line is read, so the output needs neither the line again nor
 * its parsed text: the ranking's own members go before and after them.
 */
export function renderedFields(result: ProviderResult, canonicalUrl: string | null, provider: string): string {
  const fields = JSON.stringify({ url: result.url, canonical_url: canonicalUrl, title: result.title, snippet: result.snippet, published_date: result.published_date, source: provider });
  return fields.slice(1, -1);
}

/**
 * Texts written one after another as UTF-8 into `space` (a buffer of their own, so it can be handed
 * to another thread), grown by doubling when they outgrow it: no joined string is made, which at a
 * batch's size would be a large object that only a full collection frees. A class, not an object of
 * closures: a batch makes a new one, and new closures at each batch were new call targets to the
 * optimized batch reader, which V8 threw away and compiled again (35 times in a 100k run).
 */
class GrowingBytes {
  private bytes: Buffer<ArrayBuffer>;
  private used = 0;

  constructor(space: ArrayBuffer) {
    this.bytes = Buffer.from(space);
  }

  /** Appends `value`; returns how many bytes it took. */
  write(value: string): number {
    const most = 3 * value.length;
    if (this.used + most > this.bytes.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(2 * this.bytes.length, this.used + most));
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    const written = this.bytes.write(value, this.used);
    this.used += written;
    return written;
  }

  done(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.used);
  }
}

/**
 * A reader of batches, in input order (its token table carries over from batch to batch): each
 * line is read as `skrya rank` has always read it, and a kept line is scored as at the head of
 * its provider's list (ReadItem: the ranking gives it its place). The rendered output fields go
 * into `space`, a buffer the thread that ranks hands back once it has stored them (rank.ts,
 * renderedSpaces), so batch after batch reuses the same few buffers.
 */
export function createBatchReader(setup: ReadingSetup): (batch: LineBatch, space: ArrayBuffer) => ReadBatch {
  const scoreOf = createItemScorer({ intent: setup.intent, subQueries: setup.queries, windowEnd: setup.windowEnd, boostDomains: setup.boostDomains });
  const validation = rankValidationContext(setup.windowEnd);
  const table = createTokenIds();
  let reportedWords = 0;
  const kinds = growingNumbers((length) => new Uint8Array(length));
  const numbers = growingNumbers((length) => new Float64Array(length));
  const textLengths = growingNumbers((length) => new Int32Array(length));
  const tokens = growingNumbers((length) => new Int32Array(length));
  const tokenCounts = growingNumbers((length) => new Int32Array(length));
  return ({ bytes, firstLine, last }, space) => {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const texts: string[] = [];
    const rendered = new GrowingBytes(space);
    let renderedBytes = 0;
    let previous: string | null = null;
    const text = (value: string | null) => {
      // A text equal to the one before it (a canonical URL that is the URL itself) is sent once.
      if (value !== null && value === previous) {
        textLengths.push(SAME_AS_BEFORE);
        return;
      }
      textLengths.push(value === null ? NO_TEXT : value.length);
      if (value !== null) texts.push(value);
      previous = value;
    };
    const dropped: DroppedLine[] = [];
    let weights: ScoreWeights | null = null;
    let failure: ReadBatch['failure'] = null;
    let line = firstLine;
    for (let start = 0; start < buffer.length || (last && start === buffer.length); line++) {
      let end = buffer.indexOf(NEWLINE, start);
      if (end === -1) end = buffer.length;
      const lineStart = start;
      start = end + 1;
      let item: RankInputItem | null;
      try {
        item = parseProviderLine(buffer.toString('utf8', lineStart, end), line, setup.label);
      } catch (error) {
        if (!isSkryaError(error) || error.code !== 'INVALID_INPUT') throw error;
        failure = { code: 'INVALID_INPUT', message: error.message, line };
        break;
      }
      if (item === null) continue;
      text(item.provider);
      const drop = validateForRank(item, setup.windowEnd, validation);
      if (drop !== null) {
        kinds.push(DROPPED);
        dropped.push(drop);
        continue;
      }
      kinds.push(KEPT);
      const score = scoreOf(item);
      const candidate = dedupeCandidate(item, score.score);
      const keys = matchKeys(candidate);
      const components = score.components;
      weights ??= components?.weights ?? null;
      const fieldsBytes = rendered.write(renderedFields(item.result, keys.canonicalUrl, item.provider));
      for (const value of [renderedBytes, fieldsBytes, score.score ?? Number.NaN, components?.keyword ?? 0, components?.freshness ?? 0, components?.authority ?? 0, components?.authorityTier ?? 0, components?.boosted === true ? 1 : 0, components === null ? 0 : 1, keys.canonicalUrlHash]) numbers.push(value);
      for (const value of [keys.id, keys.url, keys.canonicalUrl, keys.translation, keys.version, components?.freshnessBasis ?? null, components?.freshnessDate ?? null, components?.authorityRule ?? null, components?.authorityVersion ?? null]) text(value);
      renderedBytes += fieldsBytes;
      const count = table.read(matchedText(candidate));
      for (let k = 0; k < count; k++) tokens.push(table.ids[k]!);
      tokenCounts.push(count);
    }
    const newWords: string[] = [];
    for (; reportedWords < table.size; reportedWords++) newWords.push(table.word(reportedWords));
    return { input: bytes, kinds: kinds.done(), numbers: numbers.done(), texts: texts.join(''), textLengths: textLengths.done(), tokens: tokens.done(), tokenCounts: tokenCounts.done(), rendered: rendered.done(), newWords, weights, dropped, failure };
  };
}

/** A reader's token table as the thread that ranks knows it: the words it has been told of, by id. */
export function createTokenWords(): TokenWords & { add(words: readonly string[]): void } {
  const words: string[] = [];
  return {
    add(added) {
      for (const word of added) words.push(word);
    },
    get size() {
      return words.length;
    },
    word: (id) => words[id]!,
  };
}

/** A kept line as the ranking gets it, and where its output fields (renderedFields) are in its batch's `rendered` bytes. */
export interface KeptRead {
  item: ReadItem;
  start: number;
  length: number;
}

/**
 * What unpacking carries from batch to batch: each source's lines so far (its list, whose length is
 * the next line's provider rank), and one copy of each text many lines share (a provider's name, an
 * authority rule, a freshness basis), which every kept line holds until the run is ranked: 100k
 * copies of each were about 10 MB.
 */
export interface UnpackState {
  listLengths: Map<string, number>;
  shared: Map<string, string>;
}

export function createUnpackState(): UnpackState {
  return { listLengths: new Map(), shared: new Map() };
}

/**
 * A read batch's lines in order, for the thread that ranks: each kept line as a ReadItem placed in
 * its provider's list, each dropped one as its DroppedLine. `table` is the reader's token table as
 * known here (its new words are added first). A failed line is thrown, after the lines before it.
 */
export function unpackBatch(batch: ReadBatch, table: ReturnType<typeof createTokenWords>, { listLengths, shared }: UnpackState, visit: (kept: KeptRead | null, dropped: DroppedLine | null) => void): void {
  table.add(batch.newWords);
  const { kinds, numbers, texts, textLengths, tokens, tokenCounts, weights } = batch;
  let textAt = 0;
  let lengthAt = 0;
  let last: string | null = null;
  const next = (): string | null => {
    const length = textLengths[lengthAt++]!;
    if (length === SAME_AS_BEFORE) return last;
    if (length === NO_TEXT) {
      last = null;
      return null;
    }
    textAt += length;
    last = texts.slice(textAt - length, textAt);
    return last;
  };
  const sharedText = (text: string | null): string | null => {
    if (text === null) return null;
    const known = shared.get(text);
    if (known !== undefined) return known;
    shared.set(text, text);
    return text;
  };
  let keptAt = 0;
  let droppedAt = 0;
  let tokenAt = 0;
  for (const kind of kinds) {
    const provider = sharedText(next())!;
    const providerRank = nextListPlace(listLengths, provider);
    if (kind === DROPPED) {
      visit(null, batch.dropped[droppedAt++]!);
      continue;
    }
    const at = KEPT_NUMBERS * keptAt;
    // The kept line's texts, in the order readBatch wrote them.
    const id = next()!;
    const url = next();
    const canonicalUrl = next();
    const translation = next();
    const version = next()!;
    const basis = sharedText(next());
    const freshnessDate = next();
    const authorityRule = sharedText(next());
    const authorityVersion = sharedText(next());
    const scored = numbers[at + 8] === 1;
    const scoreValue = Number.isNaN(numbers[at + 2]!) ? null : numbers[at + 2]!;
    const score: ItemScore = !scored || weights === null ? { score: scoreValue, components: null } : {
      score: scoreValue,
      components: {
        keyword: numbers[at + 3]!,
        freshness: numbers[at + 4]!,
        authority: numbers[at + 5]!,
        // The ranking sets the rank component from the place given here.
        rank: 0,
        authorityTier: numbers[at + 6]!,
        freshnessBasis: basis as NonNullable<ItemScore['components']>['freshnessBasis'],
        freshnessDate,
        authorityRule,
        authorityVersion: authorityVersion!,
        boosted: numbers[at + 7] === 1,
        weights,
      },
    };
    const count = tokenCounts[keptAt]!;
    visit({
      item: { score, keys: { id, url, provider, score: scoreValue, canonicalUrl, canonicalUrlHash: numbers[at + 9]!, translation, version }, tokens: { table, ids: tokens, start: tokenAt, count }, providerRank, resultList: provider },
      start: numbers[at]!,
      length: numbers[at + 1]!,
    }, null);
    tokenAt += count;
    keptAt++;
  }
  if (batch.failure !== null) throw new SkryaError(batch.failure.code, batch.failure.message, { details: { line: batch.failure.line } });
}
