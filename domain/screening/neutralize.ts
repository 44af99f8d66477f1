/**
 * What downstream readers (digests, agents) get to see of a screened field.
 *
 * Always: invisible smuggling characters (Unicode tag runs, variation-selector runs, bidi
 * overrides, zero-width characters splitting words, control characters) are removed, and the
 * quarantine marker brackets are escaped so content can never fake a marker.
 * When there is evidence (downweight, quarantine, drop): every offending sentence, hidden
 * element, encoded blob or invisible run is replaced by a `[neutralized:<rule>]` token.
 * Quarantined fields are wrapped in `⟦SKRYA-QUARANTINE rule=…⟧ … ⟦/SKRYA-QUARANTINE⟧`.
 */
import type { NormalizedText, Span } from './normalize-text.ts';
import type { Hit } from './score.ts';

export const QUARANTINE_OPEN = '⟦SKRYA-QUARANTINE';
export const QUARANTINE_CLOSE = '⟦/SKRYA-QUARANTINE⟧';

interface NeutralizeRange extends Span {
  rule: string;
  weight: number;
}

const SENTENCE_STOP = /[.!?。！？\n]/;
const MAX_EXPANSION = 600;

/** Grows a span to the sentence (or line) around it, so no half of an instruction survives. */
export function expandToSentence(text: string, span: Span): Span {
  let start = span.start;
  const floor = Math.max(0, span.start - MAX_EXPANSION);
  while (start > floor && !SENTENCE_STOP.test(text[start - 1] ?? '')) start--;
  let end = span.end;
  const ceiling = Math.min(text.length, span.end + MAX_EXPANSION);
  while (end < ceiling && !SENTENCE_STOP.test(text[end - 1] ?? '')) end++;
  return { start, end };
}

/** Character ranges that are invisible smuggling, to be removed from every output. */
function invisibleRanges(normalized: NormalizedText): Span[] {
  const ranges: Span[] = [...normalized.wordSplits];
  for (const run of normalized.hiddenRuns) {
    if (run.kind !== 'bidi_override') ranges.push({ start: run.start, end: run.end });
  }
  return ranges;
}

// eslint-disable-next-line no-control-regex
const STRIPPED_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E]/g;

// eslint-disable-next-line no-control-regex
const NEEDS_CLEANING = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E⟦⟧]/;

export function sanitizeField(normalized: NormalizedText, hits: readonly Hit[], neutralize: boolean): string {
  const original = normalized.original;
  // Most accepted fields have nothing to remove: the original goes out as it is. Plain ASCII (no
  // offsets) holds no character to strip or escape, so it is not read again to find one.
  if ((!neutralize || hits.length === 0) && normalized.wordSplits.length === 0 && normalized.hiddenRuns.length === 0 && (normalized.offsets === null || !NEEDS_CLEANING.test(original))) return original;
  const ranges: NeutralizeRange[] = [];
  if (neutralize) {
    for (const hit of hits) {
      // Hidden elements, blobs and invisible runs go as they are; a phrase takes its sentence with it.
      const whole = hit.technique === 'hidden_html' || hit.technique === 'encoded_payload' || hit.technique === 'invisible_unicode' || hit.technique === 'bidi_override';
      const span = whole ? hit.span : expandToSentence(original, hit.span);
      ranges.push({ ...span, rule: hit.rule, weight: hit.weight });
    }
  }
  const merged = mergeRanges(ranges);
  const dropped = mergeSpans(invisibleRanges(normalized));
  let output = '';
  let cursor = 0;
  let droppedIndex = 0;
  const copy = (from: number, to: number) => {
    let position = from;
    while (position < to) {
      while (droppedIndex < dropped.length && (dropped[droppedIndex]?.end ?? 0) <= position) droppedIndex++;
      const next = dropped[droppedIndex];
      if (next !== undefined && next.start <= position) {
        position = Math.min(to, next.end);
        continue;
      }
      const stop = next === undefined ? to : Math.min(to, next.start);
      output += original.slice(position, stop);
      position = stop;
    }
  };
  for (const range of merged) {
    copy(cursor, range.start);
    output += `[neutralized:${range.rule}]`;
    cursor = Math.max(cursor, range.end);
  }
  copy(cursor, original.length);
  return escapeMarkers(output.replace(STRIPPED_CHARACTERS, ''));
}

function escapeMarkers(text: string): string {
  return text.replace(/⟦/g, '[[').replace(/⟧/g, ']]');
}

export function wrapQuarantine(text: string, rules: readonly string[]): string {
  return `${QUARANTINE_OPEN} rule=${rules.join(',')}⟧\n${text}\n${QUARANTINE_CLOSE}`;
}

/** Merges overlapping ranges; the strongest rule names the merged range. */
function mergeRanges(ranges: NeutralizeRange[]): NeutralizeRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: NeutralizeRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.start <= last.end) {
      last.end = Math.max(last.end, range.end);
      if (range.weight > last.weight) {
        last.rule = range.rule;
        last.weight = range.weight;
      }
    } else {
      merged.push({ ...range });
    }
  }
  return merged;
}

function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
