/**
 * Finds encoded blobs (base64, hex, \u escapes, %-encoding, numeric HTML entities) in the original
 * text and decodes those that turn out to be readable text. The decoded text is screened like any
 * other text; a blob that decodes to binary noise (hashes, ids, image data) is ignored, which is
 * what keeps base64 tutorials and checksums out of trouble.
 */

export type EncodingKind = 'base64' | 'hex' | 'unicode_escape' | 'percent' | 'html_entity';

export interface DecodedPayload {
  kind: EncodingKind;
  /** Span of the encoded blob in the original string. */
  start: number;
  end: number;
  decoded: string;
}

/** Long unbroken runs of base64/hex alphabet are found by one linear scan and classified afterwards. */
const MIN_RUN = 20;
const HEX_RUN = /^(?:[0-9A-Fa-f]{2}){12,}$/;
const BASE64_RUN = /^(?:[A-Za-z0-9+/]{4}){5,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_URL_RUN = /^[A-Za-z0-9_-]{24,}={0,2}$/;
const HEX_ESCAPES = /(?:\\x[0-9A-Fa-f]{2}){6,}/g;
const UNICODE_ESCAPES = /(?:\\u[0-9A-Fa-f]{4}|\\u\{[0-9A-Fa-f]{1,6}\}){4,}/g;
const PERCENT = /(?:[^\s%<>"']{0,12}%[0-9A-Fa-f]{2}){3,}[^\s%<>"']*/g;
/** Two %-escapes close together; a lone "60%" is a percentage, not an encoding. */
const PERCENT_GATE = /%[0-9A-Fa-f]{2}[^\s%]{0,12}%[0-9A-Fa-f]{2}/;
const HTML_ENTITIES = /(?:&#(?:x[0-9A-Fa-f]{1,6}|\d{1,7});){4,}/g;

export function findEncodedPayloads(original: string): DecodedPayload[] {
  const found: DecodedPayload[] = [];
  const add = (kind: EncodingKind, pattern: RegExp, decode: (blob: string) => Decoding | null) => {
    for (const match of original.matchAll(pattern)) {
      const blob = match[0];
      const start = match.index ?? 0;
      if (found.some((payload) => start < payload.end && start + blob.length > payload.start)) continue;
      const decoding = decode(blob);
      if (decoding !== null && decoding.text !== null && looksLikeText(decoding.text)) found.push({ kind: decoding.kind ?? kind, start, end: start + blob.length, decoded: decoding.text });
    }
  };
  const as = (decode: (blob: string) => string | null) => (blob: string): Decoding => ({ text: decode(blob) });
  // Cheap gates first: most text has no escapes, no %-runs and no long unbroken letter runs.
  if (original.includes('\\u')) add('unicode_escape', UNICODE_ESCAPES, as(decodeUnicodeEscapes));
  if (original.includes('\\x')) add('hex', HEX_ESCAPES, as((blob) => decodeHex(blob.replace(/\\x/g, ''))));
  if (original.includes('&#')) add('html_entity', HTML_ENTITIES, as(decodeEntities));
  if (PERCENT_GATE.test(original)) add('percent', PERCENT, as(decodePercent));
  for (const run of longRuns(original)) {
    const decoding = decodeRun(original.slice(run.start, run.end));
    if (decoding?.kind !== undefined && decoding.text !== null && looksLikeText(decoding.text)) found.push({ kind: decoding.kind, start: run.start, end: run.end, decoded: decoding.text });
  }
  return found;
}

function isRunCode(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x2f && code <= 0x39) || code === 0x2b || code === 0x3d || code === 0x5f || code === 0x2d;
}

/**
 * Every run of MIN_RUN or more covers one of the positions MIN_RUN apart, so only those are
 * tested and a run found there is widened both ways: prose is read a few letters per stride.
 */
function longRuns(text: string): Array<{ start: number; end: number }> {
  const runs: Array<{ start: number; end: number }> = [];
  let index = MIN_RUN - 1;
  while (index < text.length) {
    if (!isRunCode(text.charCodeAt(index))) {
      index += MIN_RUN;
      continue;
    }
    let start = index;
    while (start > 0 && isRunCode(text.charCodeAt(start - 1))) start--;
    let end = index + 1;
    while (end < text.length && isRunCode(text.charCodeAt(end))) end++;
    if (end - start >= MIN_RUN) runs.push({ start, end });
    // text[end] ends the run, so the next run starts after it and covers end + MIN_RUN or a later stride.
    index = end + MIN_RUN;
  }
  return runs;
}

/** A long run is hex, base64 or base64url, whichever decodes to text (or none of them). */
function decodeRun(run: string): Decoding | null {
  // A run glued to a URL path or an identifier is only worth trying on its own.
  const blob = run.replace(/^[/_-]+|[/_-]+$/g, '');
  if (HEX_RUN.test(blob)) return { kind: 'hex', text: decodeHex(blob) };
  if (BASE64_RUN.test(blob)) return { kind: 'base64', text: decodeBase64(blob, 'base64') };
  if (BASE64_URL_RUN.test(blob) && /[-_]/.test(blob)) return { kind: 'base64', text: decodeBase64(blob, 'base64url') };
  return null;
}

interface Decoding {
  kind?: EncodingKind;
  text: string | null;
}

function decodeBase64(blob: string, alphabet: 'base64' | 'base64url'): string | null {
  // Pure letters are more likely an identifier or a long word than base64.
  if (!/[0-9+/=_-]/.test(blob) && !/[A-Z].*[a-z]|[a-z].*[A-Z]/.test(blob)) return null;
  return strictUtf8(Buffer.from(blob, alphabet));
}

function decodeHex(blob: string): string | null {
  return strictUtf8(Buffer.from(blob, 'hex'));
}

function decodeUnicodeEscapes(blob: string): string | null {
  try {
    return blob.replace(/\\u\{([0-9A-Fa-f]{1,6})\}|\\u([0-9A-Fa-f]{4})/g, (_, braced: string | undefined, plain: string | undefined) => String.fromCodePoint(parseInt(braced ?? plain ?? '0', 16)));
  } catch {
    return null;
  }
}

function decodeEntities(blob: string): string | null {
  try {
    return blob.replace(/&#(x?)([0-9A-Fa-f]+);/g, (_, hex: string, digits: string) => String.fromCodePoint(parseInt(digits, hex === 'x' ? 16 : 10)));
  } catch {
    return null;
  }
}

function decodePercent(blob: string): string | null {
  try {
    return decodeURIComponent(blob.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** Readable text: mostly letters and spaces, no control bytes, and more than one word. */
export function looksLikeText(decoded: string): boolean {
  if (decoded.length < 8) return false;
  let readable = 0;
  let spaces = 0;
  let cjk = 0;
  for (const char of decoded) {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0x20) spaces++;
    if (code >= 0x4e00 && code <= 0x9fff) cjk++;
    if ((code >= 0x20 && code < 0x7f) || code === 0x0a || (code >= 0xa0 && code !== 0xfffd)) readable++;
  }
  const total = [...decoded].length;
  return readable / total > 0.95 && (spaces >= 2 || cjk >= 4);
}
