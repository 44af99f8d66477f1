/**
 * Language of a text with franc (trigrams), as ISO 639-1 where one exists. franc answers in
 * ISO 639-3 (individual languages such as `cmn`, `arb`, `pes`); the table maps each to the
 * two-letter code of the language or its macrolanguage. Codes without a 639-1 equivalent stay 639-3.
 */
import { francAll } from 'franc';

const ISO_639_3_TO_1: Readonly<Record<string, string>> = {
  afr: 'af', als: 'sq', amh: 'am', arb: 'ar', ayr: 'ay', azj: 'az', bam: 'bm', bel: 'be', ben: 'bn', bod: 'bo',
  bos: 'bs', bul: 'bg', cat: 'ca', ces: 'cs', ckb: 'ku', cmn: 'zh', dan: 'da', deu: 'de', ekk: 'et', ell: 'el',
  eng: 'en', epo: 'eo', ewe: 'ee', fin: 'fi', fra: 'fr', fuf: 'ff', fuv: 'ff', glg: 'gl', guj: 'gu', hat: 'ht',
  hau: 'ha', heb: 'he', hin: 'hi', hrv: 'hr', hun: 'hu', hye: 'hy', ibo: 'ig', iii: 'ii', ind: 'id', ita: 'it',
  jav: 'jv', jpn: 'ja', kan: 'kn', kat: 'ka', kaz: 'kk', khk: 'mn', khm: 'km', kin: 'rw', kir: 'ky', knc: 'kr',
  kng: 'kg', kor: 'ko', lao: 'lo', lin: 'ln', lit: 'lt', lug: 'lg', lvs: 'lv', mal: 'ml', mar: 'mr', mkd: 'mk',
  mya: 'my', ndo: 'ng', nld: 'nl', nno: 'nn', nob: 'nb', npi: 'ne', nya: 'ny', pan: 'pa', pbu: 'ps', pes: 'fa',
  plt: 'mg', pol: 'pl', por: 'pt', prs: 'fa', qug: 'qu', quy: 'qu', quz: 'qu', ron: 'ro', run: 'rn', rus: 'ru',
  sag: 'sg', sin: 'si', slk: 'sk', slv: 'sl', sna: 'sn', som: 'so', sot: 'st', spa: 'es', src: 'sc', srp: 'sr',
  ssw: 'ss', sun: 'su', swe: 'sv', swh: 'sw', tam: 'ta', tat: 'tt', tel: 'te', tgk: 'tg', tgl: 'tl', tha: 'th',
  tir: 'ti', tsn: 'tn', tso: 'ts', tuk: 'tk', tur: 'tr', uig: 'ug', ukr: 'uk', urd: 'ur', uzn: 'uz', ven: 've',
  vie: 'vi', wol: 'wo', xho: 'xh', ydd: 'yi', yor: 'yo', zlm: 'ms', zul: 'zu', zyb: 'za',
};

/**
 * franc is reliable only with some text, and its cost grows with the sample and with the number
 * of candidate languages (with all 400+ and 3,000 characters it took two thirds of the scorer's
 * time). So: the start of the text, and only the languages written in its script; a script that
 * belongs to one language (kana, hangul) or to Chinese alone (Han without kana) needs no trigrams.
 */
const MIN_CHARS = 20;
const SAMPLE_CHARS = 400;
const LATIN = ['eng', 'spa', 'fra', 'deu', 'por', 'ita', 'nld', 'pol', 'tur', 'vie', 'ind', 'swe', 'dan', 'nob', 'fin', 'ces', 'slk', 'ron', 'hun', 'cat', 'hrv', 'lit', 'tgl', 'zlm'];
const CYRILLIC = ['rus', 'ukr', 'bul', 'srp', 'bel', 'mkd', 'kaz'];
const ARABIC = ['arb', 'pes', 'urd'];

type ScriptGuess = { language: string } | { candidates: string[] } | null;

function byScript(sample: string): ScriptGuess {
  const count = (pattern: RegExp) => sample.match(pattern)?.length ?? 0;
  const kana = count(/[\u3040-\u30ff]/g);
  const han = count(/[\u4e00-\u9fff]/g);
  const hangul = count(/[\uac00-\ud7af]/g);
  const cyrillic = count(/[\u0400-\u04ff]/g);
  const arabic = count(/[\u0600-\u06ff]/g);
  const latin = count(/[a-zA-Z\u00c0-\u024f]/g);
  // A Han or kana character carries about a word, a hangul block about half of one, a Latin
  // letter a fifth: "使用 Kubernetes 部署数据库" is Chinese with an English name in it.
  const cjk = (kana + han) * 3;
  const korean = hangul * 2;
  const strongest = Math.max(cjk, korean, cyrillic, arabic, latin);
  if (strongest === 0) return null;
  if (strongest === cjk) return { language: kana > 0 ? 'ja' : 'zh' };
  if (strongest === korean) return { language: 'ko' };
  if (strongest === cyrillic) return { candidates: CYRILLIC };
  if (strongest === arabic) return { candidates: ARABIC };
  return { candidates: LATIN };
}

export function toIso6391(code: string): string {
  return ISO_639_3_TO_1[code] ?? code;
}

/** Candidates this close to the best score are treated as ties. */
const TIE_RATIO = 0.95;

/**
 * Detected language, or the declared one (`<html lang>`, a feed's `<language>`, front matter)
 * when the text is too short, when the text's script agrees with it, or when it is among the
 * near-best candidates; null when
 * neither says. Trigram scores of related languages are close (English vs Scots, German vs Low
 * German), so among near ties the declared language wins, then a language with a 639-1 code.
 */
export function detectLanguage(text: string, declared: string | null = null): string | null {
  const primary = declared?.trim().toLowerCase().split(/[-_]/)[0];
  const declaredCode = primary && /^[a-z]{2,3}$/.test(primary) ? primary : null;
  const sample = text.slice(0, SAMPLE_CHARS);
  if (sample.trim().length < MIN_CHARS) return declaredCode;
  const script = byScript(sample);
  if (script === null) return declaredCode;
  if ('language' in script) return declaredCode && declaredCode === script.language ? declaredCode : script.language;
  // With a declaration its script agrees with, only the declared language and the most-written
  // ones of that script are weighed: a wrong declaration still loses to clear text, at a third of the cost.
  const declared3 = declaredCode ? script.candidates.find((code) => toIso6391(code) === declaredCode) : undefined;
  const only = declared3 ? [...new Set([declared3, ...script.candidates.slice(0, 7)])] : script.candidates;
  const candidates = francAll(sample, { minLength: MIN_CHARS, only });
  const [best] = candidates;
  if (!best || best[0] === 'und') return declaredCode;
  const nearBest = candidates.filter(([, score]) => score >= best[1] * TIE_RATIO).map(([code]) => toIso6391(code));
  if (declaredCode && nearBest.includes(declaredCode)) return declaredCode;
  return nearBest.find((code) => code.length === 2) ?? toIso6391(best[0]);
}
