/**
 * The one decoding step every reader (public-URL fetches, feed files, local notes) goes through:
 * bytes → text, in the first charset that the bytes themselves or their carrier name and that
 * actually decodes them. In order: a byte-order mark; the byte pattern of UTF-16/32 without one
 * (XML 1.0 appendix F, and NUL-byte columns for text that is no XML); the XML declaration's
 * encoding; the HTTP charset; `<meta charset>` (or its http-equiv form); then valid UTF-8; then
 * jschardet's detection for undeclared legacy bytes. Every decode is strict: bytes the charset
 * cannot read make that candidate fail and the next one is tried; when none reads them the
 * result is BAD_RESPONSE (reason `undecodable`), never text with U+FFFD put in silently.
 */
import { createRequire } from 'node:module';
import iconv from 'iconv-lite';
import type { chardet as Chardet } from 'jschardet';
import { SkryaError } from '../../runtime/errors.ts';

export type CharsetSource = 'bom' | 'byte-pattern' | 'xml-declaration' | 'http' | 'meta' | 'utf-8' | 'detected';

export interface DecodedText {
  text: string;
  /** The charset label the text was decoded with (lower case). */
  charset: string;
  /** Which step chose it. */
  source: CharsetSource;
}

interface Candidate {
  label: string;
  source: CharsetSource;
}

/** How far into the bytes a declaration is looked for. */
const DECLARATION_WINDOW = 1024;
const META_WINDOW = 4096;
/** Bytes sampled for the NUL-column test and handed to the detector. */
const SAMPLE_BYTES = 4096;
const DETECT_BYTES = 200_000;

/** The detector's model is large; it is loaded the first time undeclared legacy bytes need it. */
let detector: typeof Chardet | null = null;
function loadDetector(): typeof Chardet {
  detector ??= (createRequire(import.meta.url)('jschardet') as { chardet: typeof Chardet }).chardet;
  return detector;
}

export function decodeBytes(bytes: Uint8Array, contentType = ''): DecodedText {
  const bom = bomCharset(bytes);
  if (bom) return decodeOrFail(bytes, { label: bom, source: 'bom' });
  const pattern = wideCharset(bytes);
  if (pattern) return decodeOrFail(bytes, { label: pattern, source: 'byte-pattern' });

  const tried: string[] = [];
  for (const candidate of declaredCandidates(bytes, contentType)) {
    const text = strictDecode(bytes, candidate.label);
    if (text !== null) return { text, charset: candidate.label, source: candidate.source };
    tried.push(`${candidate.label} (${candidate.source})`);
  }
  const utf8 = strictDecode(bytes, 'utf-8');
  if (utf8 !== null) return { text: utf8, charset: 'utf-8', source: 'utf-8' };
  tried.push('utf-8');
  for (const guess of loadDetector().detectAll(bytes.subarray(0, DETECT_BYTES))) {
    if (!guess.encoding) continue;
    const label = guess.encoding.toLowerCase();
    const text = strictDecode(bytes, label);
    if (text !== null) return { text, charset: label, source: 'detected' };
    tried.push(`${label} (detected)`);
  }
  throw undecodable(`no charset reads these ${bytes.length} bytes (tried ${tried.join(', ')})`, tried);
}

function decodeOrFail(bytes: Uint8Array, candidate: Candidate): DecodedText {
  const text = strictDecode(bytes, candidate.label);
  if (text === null) throw undecodable(`the bytes are not valid ${candidate.label} although their ${candidate.source} says so`, [candidate.label]);
  return { text, charset: candidate.label, source: candidate.source };
}

function undecodable(message: string, tried: string[]): SkryaError {
  return new SkryaError('BAD_RESPONSE', message, { details: { reason: 'undecodable', tried } });
}

function bomCharset(bytes: Uint8Array): string | null {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00) return 'utf-32le';
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) return 'utf-32be';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  return null;
}

/**
 * UTF-16/32 without a BOM: text that is mostly ASCII (markup always is) leaves NUL bytes in fixed
 * columns: every other byte for UTF-16, three of every four for UTF-32.
 */
function wideCharset(bytes: Uint8Array): string | null {
  const sample = bytes.subarray(0, SAMPLE_BYTES - (SAMPLE_BYTES % 4));
  if (sample.length < 4) return null;
  const zeros = [0, 0, 0, 0];
  for (let index = 0; index < sample.length; index += 1) if (sample[index] === 0) zeros[index % 4] = (zeros[index % 4] ?? 0) + 1;
  const share = zeros.map((count) => count / (sample.length / 4));
  const [z0 = 0, z1 = 0, z2 = 0, z3 = 0] = share;
  const high = (value: number) => value > 0.6;
  const low = (value: number) => value < 0.05;
  if (low(z0) && high(z1) && high(z2) && high(z3)) return 'utf-32le';
  if (high(z0) && high(z1) && high(z2) && low(z3)) return 'utf-32be';
  if (low(z0) && low(z2) && high(z1) && high(z3)) return 'utf-16le';
  if (high(z0) && high(z2) && low(z1) && low(z3)) return 'utf-16be';
  return null;
}

const WIDE_LABEL = /^(utf-?16|utf-?32|ucs-?2|ucs-?4|unicode)/i;

function declaredCandidates(bytes: Uint8Array, contentType: string): Candidate[] {
  const head = Buffer.from(bytes.subarray(0, META_WINDOW)).toString('latin1');
  const candidates: Candidate[] = [];
  const add = (label: string | undefined, source: CharsetSource) => {
    // A wide charset declared in bytes that are plainly not wide is a mislabel; the bytes win.
    if (label && !WIDE_LABEL.test(label)) candidates.push({ label: label.toLowerCase(), source });
  };
  add(/^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head.slice(0, DECLARATION_WINDOW))?.[1], 'xml-declaration');
  add(/;\s*charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(contentType)?.[1], 'http');
  const meta = /<meta\b[^>]*?\bcharset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(head);
  add(meta?.[1], 'meta');
  return candidates;
}

/** The text, or null when the bytes are not valid in that charset (or the label is unknown). */
export function strictDecode(bytes: Uint8Array, label: string): string | null {
  const name = label.trim().toLowerCase();
  if (/^(utf-?32|ucs-?4)(le|be)?$/.test(name)) return decodeUtf32(bytes, name.endsWith('be') ? 'be' : name.endsWith('le') ? 'le' : null);
  let decoder: InstanceType<typeof TextDecoder> | null;
  try {
    decoder = new TextDecoder(name, { fatal: true });
  } catch {
    decoder = null;
  }
  if (decoder) {
    try {
      return decoder.decode(bytes);
    } catch {
      return null;
    }
  }
  if (!iconv.encodingExists(name)) return null;
  // A charset TextDecoder does not know: iconv-lite, which marks what it cannot read with U+FFFD.
  const text = iconv.decode(Buffer.from(bytes), name);
  return text.includes('\uFFFD') ? null : text;
}

/** UTF-32 by hand: iconv-lite would turn invalid code units into U+FFFD without saying so. */
function decodeUtf32(bytes: Uint8Array, order: 'le' | 'be' | null): string | null {
  if (bytes.length % 4 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  let littleEndian = order !== 'be';
  if (bytes.length >= 4) {
    const first = view.getUint32(0, littleEndian);
    if (first === 0xfeff) start = 4;
    else if (order === null && view.getUint32(0, false) === 0xfeff) {
      littleEndian = false;
      start = 4;
    }
  }
  const parts: string[] = [];
  let chunk: number[] = [];
  for (let offset = start; offset < bytes.length; offset += 4) {
    const code = view.getUint32(offset, littleEndian);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
    chunk.push(code);
    if (chunk.length === 8192) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  return parts.join('');
}
