/**
 * Prompt-injection screening of one item: `screenItem(input)` → verdict, risk score, the evidence
 * (rule, technique, field, span in the original text), text that was hidden from human eyes, and
 * sanitized fields safe to hand to a model.
 *
 * Each field is normalized once (normalize-text.ts), then read in several views: the visible
 * text, what invisible characters spelled out, decoded blobs, and — only when a cheap hint says
 * so — letters collapsed from "i g n o r e", de-leeted words, reversed text and rot13. Every view
 * runs the same rule families (rules.ts); hits are weighed by context (context.ts) and combined
 * into a score (score.ts). Evidence spans always point into the original field.
 */
import { z } from 'zod';
import { countDiscussionTerms, crossesSentenceBoundary, DISCUSSION_THRESHOLD, followsExampleCue, isNegated, isQuoted } from './context.ts';
import { findEncodedPayloads, looksLikeText } from './encoded-payloads.ts';
import { findHiddenRegions, type HiddenRegion } from './hidden-html.ts';
import { sanitizeField, wrapQuarantine } from './neutralize.ts';
import { normalizeText, toOriginalSpan, type NormalizedText, type Span } from './normalize-text.ts';
import { createTriggerIndex, type TextSignals } from './rule-triggers.ts';
import { COMPACT_RULES, LEET_WORD, RAW_RULES, REVERSED_TEXT_HINT, ROT13_HINT, SEPARATED_LETTERS, TEXT_RULES, type Rule, type Technique } from './rules.ts';
import { scoreWithModel, type ModelField, type ModelVerdictPart } from './learned-model.ts';
import { scoreHits, verdictFor, type Hit, type Verdict } from './score.ts';
import { SCORING_MODEL, type ScoringModel } from './scoring-model.ts';

export const screenInputSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string().nullish(),
  summary: z.string().nullish(),
  url: z.string().nullish(),
  html: z.string().nullish(),
});
export type ScreenInput = z.input<typeof screenInputSchema>;

export interface Evidence {
  rule: string;
  technique: Technique;
  /** title, content, summary or html. */
  field: string;
  /** Where in the original field (UTF-16 indices, end exclusive). */
  span: { start: number; end: number };
  /** The matched text as the rule saw it: normalized, decoded or de-obfuscated. */
  text: string;
  /** Contribution after context (quoted examples in a security article weigh little). */
  weight: number;
}

export interface ScreenResult {
  verdict: Verdict;
  /** The combined 0..1 risk the verdict is read from (scoring-model.ts). */
  score: number;
  /** The rules' own risk from their evidence. */
  ruleScore: number;
  /** What the learned model said: its probability, calibrated risk, the passage and features behind it; null when disabled. */
  model: ModelVerdictPart | null;
  evidence: Evidence[];
  hiddenText: string[];
  sanitized: { title: string; content: string | null; summary: string | null };
}

export interface ScreenOptions {
  scoring: ScoringModel;
}

export const DEFAULT_SCREEN_OPTIONS: ScreenOptions = { scoring: SCORING_MODEL };

/** A quoted example inside an article about attacks weighs this much of a directive. */
const QUOTED_IN_DISCUSSION = 0.2;
/** Quoted anywhere else (a character's line in a story, a review): still suspect, a little less. */
const QUOTED_ELSEWHERE = 0.7;
/** An unquoted phrase right after "such as" / "例如" in such an article. */
const CITED_IN_DISCUSSION = 0.35;
/** Any other directive in such an article that no AI is addressed in. */
const UNADDRESSED_IN_DISCUSSION = 0.6;
/** How far after "Note to AI assistants:" an instruction still counts as addressed to them. */
const ADDRESS_REACH = 300;
/** Carrier weights for what hid or obfuscated a payload. */
const HIDDEN_CARRYING_PAYLOAD = 0.5;
const HIDDEN_EMPTY = 0.15;
const OBFUSCATED_PAYLOAD = 0.5;
const INVISIBLE_TEXT = 0.7;
const INVISIBLE_NOISE = 0.3;
const SPLIT_OR_MIXED_ALONE = 0.3;
const SPLIT_OR_MIXED_ON_PAYLOAD = 0.6;
const LEET_WORDS_NEEDED = 3;
const SPACED_RUN_NEEDED = 6;
const LEADING_DELIMITERS = /^[\s.!?"“([|>*#【-]+/;
/** Farther than any rule's pattern reaches from its trigger word. */
const WINDOW_MARGIN = 400;
const MAX_TEXT_IN_EVIDENCE = 300;

type FieldName = 'title' | 'content' | 'summary' | 'html';

// Built once from constant rule tables; between calls it keeps only a bounded memo of each token's gates.
const TEXT_RULE_TRIGGERS = createTriggerIndex(TEXT_RULES);

/** One readable view of a field and how its indices map back to the original. */
interface View {
  text: string;
  toOriginal: (start: number, end: number) => Span;
  /** Set when the view exists only because something was hidden or obfuscated. */
  carrier: { rule: string; technique: Technique; weight: number } | null;
  /** Quote and example-cue discounts only make sense on the text a reader sees. */
  readable: boolean;
  compact: boolean;
  /** Already computed for the visible text; other views are tokenized when read. */
  signals?: TextSignals;
}

interface FieldScan {
  name: FieldName;
  normalized: NormalizedText;
  hits: Hit[];
  hidden: string[];
}

export function screenItem(input: ScreenInput, options: ScreenOptions = DEFAULT_SCREEN_OPTIONS): ScreenResult {
  const item = screenInputSchema.parse(input);
  const fields: Array<[FieldName, string]> = [['title', item.title]];
  if (item.content) fields.push(['content', item.content]);
  if (item.summary) fields.push(['summary', item.summary]);
  if (item.html) fields.push(['html', item.html]);

  // The html field comes last: the fields before it tell which of its text they show already.
  const normalizedFields: Array<{ name: FieldName; normalized: NormalizedText; signals: TextSignals }> = [];
  let htmlLeft: NormalizedText | null = null;
  for (const [name, text] of fields) {
    let normalized = normalizeText(text);
    if (name === 'html') {
      htmlLeft = plainHtmlLeft(normalized, normalizedFields.map((field) => field.normalized.text));
      normalized = htmlLeft ?? normalized;
    }
    normalizedFields.push({ name, normalized, signals: TEXT_RULE_TRIGGERS.signals(normalized.text) });
  }
  // Discussion vocabulary is counted only once something has matched, and only if it may be there.
  let discussionMemo: boolean | undefined;
  const discussion = () =>
    (discussionMemo ??=
      normalizedFields.some((field) => field.signals.hints.discussion) &&
      countDiscussionTerms(normalizedFields.map((field) => field.normalized.text).join('\n')) >= DISCUSSION_THRESHOLD);
  const scans = normalizedFields.map(({ name, normalized, signals }) => scanField(name, normalized, signals, discussion));

  const hits = scans.flatMap((scan) => scan.hits);
  const ruleScore = scoreHits(hits);
  const model = options.scoring.useModel ? modelVerdict(normalizedFields, htmlLeft) : null;
  const score = options.scoring.combine(ruleScore, model?.risk ?? 0);
  const verdict = verdictFor(score, options.scoring.thresholds);
  const neutralize = verdict !== 'accept';
  const rules = [...new Set(hits.filter((hit) => hit.role === 'payload').map((hit) => hit.rule))];
  const sanitizedOf = (name: FieldName): string | null => {
    const scan = scans.find((entry) => entry.name === name);
    if (scan === undefined) return null;
    const text = sanitizeField(scan.normalized, scan.hits, neutralize);
    return verdict === 'quarantine' || verdict === 'drop' ? wrapQuarantine(text, rules.length > 0 ? rules : [...new Set(hits.map((hit) => hit.rule))]) : text;
  };
  const dropped = verdict === 'drop';
  return {
    verdict,
    score,
    ruleScore,
    model,
    evidence: hits.map(({ rule, technique, field, span, text, weight }) => ({ rule, technique, field, span, text, weight })),
    hiddenText: scans.flatMap((scan) => scan.hidden),
    sanitized: {
      title: sanitizedOf('title') ?? '',
      content: dropped ? null : sanitizedOf('content'),
      summary: dropped ? null : sanitizedOf('summary'),
    },
  };
}

/** Elements a page renders as they are, text and structure; a bare tag of one (no attributes) says nothing of its own. */
const ORDINARY_ELEMENTS: ReadonlySet<string> = new Set([
  'a', 'abbr', 'address', 'article', 'aside', 'b', 'blockquote', 'br', 'caption', 'center', 'cite', 'code', 'dd', 'del', 'dfn', 'div', 'dl', 'dt',
  'em', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'i', 'img', 'ins', 'kbd', 'li', 'main', 'mark',
  'ol', 'p', 'picture', 'pre', 'q', 's', 'samp', 'section', 'small', 'source', 'span', 'strong', 'sub', 'sup', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'time', 'tr', 'u', 'ul', 'var',
]);
const TAG = /^<\/?([a-z][a-z0-9]*)(\s[^<>]*)?\/?>$/;

/**
 * What of an html field is left to screen when its markup is plain: no hidden regions, no
 * comments, every tag an ordinary element (ORDINARY_ELEMENTS). Then each text node that the
 * item's other fields already hold word for word (a feed entry's html repeats the text its content
 * was read from) is screened in the field that shows it, and each bare tag (`<p>`, `</em>`) says
 * nothing: what is left is the text no other field holds (a feed's description past its snippet)
 * and the tags with attributes, a line each, with `offsets` into the html as given. Raw-URL rules
 * and decoders still read the html whole (`original`). Null when the markup is not plain or nothing
 * is shown elsewhere: the html is screened whole, as any markup that may hide something must be.
 * Screening a feed entry's html whole took nearly half its screening.
 */
function plainHtmlLeft(html: NormalizedText, shownIn: readonly string[]): NormalizedText | null {
  const text = html.text;
  // Kept pieces as flat [start, end) pairs.
  const kept: number[] = [];
  let removedAny = false;
  for (let from = 0; from < text.length;) {
    const open = text.indexOf('<', from);
    const end = open < 0 ? text.length : open;
    const words = text.slice(from, end).trim();
    if (words !== '') {
      if (shownIn.some((field) => field.includes(words))) removedAny = true;
      else kept.push(from, end);
    }
    if (open < 0) break;
    const close = text.indexOf('>', open + 1);
    if (close < 0) return null;
    const tag = TAG.exec(text.slice(open, close + 1));
    if (tag === null || !ORDINARY_ELEMENTS.has(tag[1]!)) return null;
    if (tag[2] !== undefined && tag[2].trim() !== '') kept.push(open, close + 1);
    else removedAny = true;
    from = close + 1;
  }
  // Hidden regions are looked for last: a page that is not plain (`<!doctype>`, `<head>`) has
  // failed at its first tag, and scanField will look for them in what is screened.
  if (!removedAny || findHiddenRegions(text).length > 0) return null;
  const originalOf = (index: number) => (html.offsets === null ? index : html.offsets[index]!);
  let keptLength = 0;
  for (let index = 0; index < kept.length; index += 2) keptLength += kept[index + 1]! - kept[index]!;
  // A line break between pieces, so no sentence or passage runs from one into the next.
  const offsets = new Int32Array(keptLength + Math.max(0, kept.length / 2 - 1) + 1);
  let left = '';
  let written = 0;
  for (let index = 0; index < kept.length; index += 2) {
    if (index > 0) {
      left += '\n';
      offsets[written++] = originalOf(kept[index]!);
    }
    left += text.slice(kept[index]!, kept[index + 1]!);
    for (let at = kept[index]!; at < kept[index + 1]!; at++) offsets[written++] = originalOf(at);
  }
  offsets[written] = html.original.length;
  return { ...html, text: left, offsets };
}

/**
 * The learned model reads the html as the rules do (htmlLeft: what plainHtmlLeft left, normalized
 * text, which the model lower-cases and normalizes anyway); its passage is led back into the html
 * as given. A plain ASCII field goes with its lower-cased text, which normalizing made already.
 */
function modelVerdict(fields: ReadonlyArray<{ name: FieldName; normalized: NormalizedText }>, htmlLeft: NormalizedText | null): ModelVerdictPart {
  const verdict = scoreWithModel(fields.map(({ name, normalized }): ModelField => {
    if (normalized === htmlLeft) return [name, htmlLeft.text];
    const plain = normalized.offsets === null && !normalized.original.includes('&') && !normalized.original.includes('\\');
    return [name, normalized.original, plain ? normalized.text : undefined];
  }));
  if (htmlLeft === null || verdict.passage?.field !== 'html') return verdict;
  const span = toOriginalSpan(htmlLeft, verdict.passage.span.start, verdict.passage.span.end);
  return { ...verdict, passage: { field: 'html', span, text: clip(htmlLeft.original.slice(span.start, span.end)) } };
}

function scanField(name: FieldName, normalized: NormalizedText, signals: TextSignals, discussion: () => boolean): FieldScan {
  const hits: Hit[] = [];
  const hidden: string[] = [];
  const seen = new Set<string>();
  const add = (hit: Hit): boolean => {
    const key = `${hit.rule}:${hit.span.start}:${hit.span.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    hits.push(hit);
    return true;
  };

  for (const view of viewsOf(normalized, signals, hidden)) {
    // Collapsed letters have no word boundaries left to gate on: every rule reads them.
    // A reading only counts as obfuscation when it reveals something the visible text did not.
    const found = matchRules(view, name, discussion).filter(add);
    if (view.carrier !== null && found.some((hit) => hit.role === 'payload')) {
      const spans = found.map((hit) => hit.span);
      const span = { start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) };
      add({ ...view.carrier, role: 'carrier', field: name, span, text: clip(view.text) });
    }
  }
  for (const rule of normalized.original.includes('http') ? RAW_RULES : []) {
    for (const match of execAll(rule.pattern, normalized.original)) {
      const example = discussion() && (isQuoted(normalized.original, match.index) || followsExampleCue(normalized.original, match.index));
      add(hitOf(rule, name, { start: match.index, end: match.index + match[0].length }, match[0], rule.weight * (example ? QUOTED_IN_DISCUSSION : 1)));
    }
  }

  const payloadSpans = hits.filter((hit) => hit.role === 'payload').map((hit) => hit.span);
  for (const region of findHiddenRegions(normalized.text)) {
    const span = toOriginalSpan(normalized, region.start, region.end);
    const carries = payloadSpans.some((payload) => overlaps(payload, span));
    hidden.push(describeRegion(normalized, region, span));
    add({ rule: `hidden.${region.kind}`, technique: 'hidden_html', role: 'carrier', field: name, span, text: clip(region.how), weight: carries ? HIDDEN_CARRYING_PAYLOAD : HIDDEN_EMPTY });
  }
  for (const run of normalized.hiddenRuns) {
    if (run.kind === 'bidi_override') {
      add({ rule: 'invisible.bidi-override', technique: 'bidi_override', role: 'carrier', field: name, span: { start: run.start, end: run.end }, text: clip(run.text), weight: INVISIBLE_NOISE });
      continue;
    }
    // Readable text spelled in invisible characters is an injection whatever it says.
    const readable = looksLikeText(run.text);
    add({ rule: `invisible.${run.kind}`, technique: 'invisible_unicode', role: readable ? 'payload' : 'carrier', field: name, span: { start: run.start, end: run.end }, text: clip(run.text), weight: readable ? INVISIBLE_TEXT : INVISIBLE_NOISE });
  }
  for (const split of mergeNearby(normalized.wordSplits)) {
    const onPayload = payloadSpans.some((payload) => overlaps(payload, split));
    add({ rule: 'invisible.zero-width-split', technique: 'invisible_unicode', role: 'carrier', field: name, span: split, text: clip(normalized.original.slice(split.start, split.end)), weight: onPayload ? SPLIT_OR_MIXED_ON_PAYLOAD : SPLIT_OR_MIXED_ALONE });
  }
  for (const word of mergeNearby(normalized.mixedScriptWords)) {
    const onPayload = payloadSpans.some((payload) => overlaps(payload, word));
    add({ rule: 'homoglyph.mixed-script-word', technique: 'homoglyph', role: 'carrier', field: name, span: word, text: clip(normalized.original.slice(word.start, word.end)), weight: onPayload ? SPLIT_OR_MIXED_ON_PAYLOAD : SPLIT_OR_MIXED_ALONE });
  }
  return { name, normalized, hits, hidden };
}

/** The visible text plus every decoded or de-obfuscated reading worth screening. */
function viewsOf(normalized: NormalizedText, signals: TextSignals, hidden: string[]): View[] {
  const text = normalized.text;
  const mapped = (start: number, end: number) => toOriginalSpan(normalized, start, end);
  const views: View[] = [{ text, toOriginal: mapped, carrier: null, readable: true, compact: false, signals }];
  const wholeSpan = (span: Span) => () => span;

  for (const run of normalized.hiddenRuns) {
    if (run.text.trim().length === 0) continue;
    hidden.push(run.text);
    const technique: Technique = run.kind === 'bidi_override' ? 'bidi_override' : 'invisible_unicode';
    views.push({ text: normalizeText(run.text).text, toOriginal: wholeSpan(run), carrier: { rule: `invisible.${run.kind}`, technique, weight: OBFUSCATED_PAYLOAD }, readable: false, compact: false });
  }
  for (const payload of findEncodedPayloads(normalized.original)) {
    views.push({ text: normalizeText(payload.decoded).text, toOriginal: wholeSpan(payload), carrier: { rule: `encoded.${payload.kind}`, technique: 'encoded_payload', weight: OBFUSCATED_PAYLOAD }, readable: false, compact: false });
  }
  for (const match of signals.longestSpacedRun >= SPACED_RUN_NEEDED ? text.matchAll(SEPARATED_LETTERS) : []) {
    const start = match.index ?? 0;
    const span = mapped(start, start + match[0].length);
    const collapsed = match[0].replace(/[ \t.\-_/|*·•:+~]/g, '');
    views.push({ text: collapsed, toOriginal: () => span, carrier: { rule: 'obfuscation.separated-letters', technique: 'obfuscation', weight: OBFUSCATED_PAYLOAD }, readable: false, compact: true });
  }
  if (signals.leetWords >= LEET_WORDS_NEEDED) {
    views.push({ text: text.replace(LEET_WORD, deleet), toOriginal: mapped, carrier: { rule: 'obfuscation.leetspeak', technique: 'obfuscation', weight: OBFUSCATED_PAYLOAD }, readable: false, compact: false });
  }
  if (signals.hints.reversed && REVERSED_TEXT_HINT.test(text)) {
    // Reversed by UTF-16 unit so every index maps straight back (rules only read letters here).
    const reversed = text.split('').reverse().join('');
    const length = text.length;
    views.push({ text: reversed, toOriginal: (start, end) => mapped(length - end, length - start), carrier: { rule: 'obfuscation.reversed-text', technique: 'obfuscation', weight: OBFUSCATED_PAYLOAD }, readable: false, compact: false });
  }
  if (signals.hints.rot13 && ROT13_HINT.test(text)) {
    views.push({ text: rot13(text), toOriginal: mapped, carrier: { rule: 'obfuscation.rot13', technique: 'obfuscation', weight: OBFUSCATED_PAYLOAD }, readable: false, compact: false });
  }
  return views;
}

/** Rules to run on a view and the stretch of text each needs to read. */
function plannedRules(view: View): Array<{ rule: Rule; from: number; to: number }> {
  const length = view.text.length;
  // Collapsed letters have no word boundaries left to gate on: every rule reads all of them.
  if (view.compact) return [...TEXT_RULES, ...COMPACT_RULES].map((rule) => ({ rule, from: 0, to: length }));
  const planned: Array<{ rule: Rule; from: number; to: number }> = [];
  for (const [rule, stretches] of (view.signals ?? TEXT_RULE_TRIGGERS.signals(view.text)).enabled) {
    // Every pattern is bounded, so a match lies within WINDOW_MARGIN of its trigger; whole lines
    // are kept so line anchors still mean what they say.
    for (const { first, last } of stretches) {
      const from = first - WINDOW_MARGIN <= 0 ? 0 : view.text.lastIndexOf('\n', first - WINDOW_MARGIN) + 1;
      const lineEnd = last + WINDOW_MARGIN >= length ? -1 : view.text.indexOf('\n', last + WINDOW_MARGIN);
      planned.push({ rule, from, to: lineEnd < 0 ? length : lineEnd });
    }
  }
  return planned;
}

function matchRules(view: View, field: FieldName, discussion: () => boolean): Hit[] {
  const found: Array<{ rule: Rule; start: number; end: number; text: string }> = [];
  for (const { rule, from, to } of plannedRules(view)) {
    const window = from === 0 && to === view.text.length ? view.text : view.text.slice(from, to);
    for (const match of execAll(rule.pattern, window)) {
      const matched = match[0];
      if (rule.crossesSentence && !crossesSentenceBoundary(matched)) continue;
      // Anchors may consume leading delimiters; the hit starts at its first word.
      const lead = matched.length - matched.replace(LEADING_DELIMITERS, '').length;
      const start = from + match.index + lead;
      if (rule.negatable && isNegated(view.text, start)) continue;
      found.push({ rule, start, end: from + match.index + matched.length, text: matched.slice(lead) });
    }
  }
  const addressStarts = found.filter((entry) => entry.rule.technique === 'ai_address').map((entry) => entry.start);
  return found.map(({ rule, start, end, text }) => {
    let weight = rule.weight;
    if (view.readable && discussion()) {
      if (isQuoted(view.text, start)) weight *= QUOTED_IN_DISCUSSION;
      else if (followsExampleCue(view.text, start)) weight *= CITED_IN_DISCUSSION;
      else if (rule.role === 'payload' && !addressStarts.some((at) => at <= start && start - at <= ADDRESS_REACH)) weight *= UNADDRESSED_IN_DISCUSSION;
    } else if (view.readable && rule.role === 'payload' && isQuoted(view.text, start)) {
      weight *= QUOTED_ELSEWHERE;
    }
    return hitOf(rule, field, view.toOriginal(start, end), text, weight);
  });
}

function hitOf(rule: Rule, field: FieldName, span: Span, text: string, weight: number): Hit {
  return { rule: rule.id, technique: rule.technique, role: rule.role, field, span, text: clip(text), weight: Math.round(weight * 1000) / 1000 };
}

function execAll(pattern: RegExp, text: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) pattern.lastIndex++;
    matches.push(match);
  }
  return matches;
}

function describeRegion(normalized: NormalizedText, region: HiddenRegion, span: Span): string {
  const text = normalized.original.slice(span.start, span.end).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return clip(`${region.how}: ${text}`);
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Zero-width splits or mixed-script words a few characters apart are one obfuscated phrase. */
function mergeNearby(spans: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start - last.end <= 24) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

const LEET_LETTERS: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's' };

function deleet(word: string): string {
  return word.replace(/[0134578@$]/g, (char) => LEET_LETTERS[char] ?? char);
}

function rot13(text: string): string {
  return text.replace(/[a-z]/g, (char) => String.fromCharCode(((char.charCodeAt(0) - 97 + 13) % 26) + 97));
}

function clip(text: string): string {
  return text.length > MAX_TEXT_IN_EVIDENCE ? `${text.slice(0, MAX_TEXT_IN_EVIDENCE)}…` : text;
}
