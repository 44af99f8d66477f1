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
 * franc is reliable only with some text, and its cost grows with the text and with the number of
 * candidate languages: it reads the start of the text and weighs the 40 most-written languages
 * (the scorer spent two thirds of its time here with all 400+ and 3,000 characters).
 */
const MIN_CHARS = 20;
const SAMPLE_CHARS = 600;
const CANDIDATES = [
  'eng', 'cmn', 'spa', 'fra', 'deu', 'por', 'rus', 'jpn', 'kor', 'ita', 'nld', 'arb', 'hin', 'ben', 'tur', 'vie', 'ind', 'pol',
  'ukr', 'swe', 'dan', 'nob', 'fin', 'ces', 'slk', 'hun', 'ron', 'ell', 'heb', 'tha', 'pes', 'urd', 'msa', 'zlm', 'tgl', 'cat',
  'bul', 'srp', 'hrv', 'lit',
];

export function toIso6391(code: string): string {
  return ISO_639_3_TO_1[code] ?? code;
}

/** Candidates this close to the best score are treated as ties. */
const TIE_RATIO = 0.95;

/**
 * Detected language, or the declared one (`<html lang>`, a feed's `<language>`, front matter)
 * when the text is too short or the declaration is among the near-best candidates; null when
 * neither says. Trigram scores of related languages are close (English vs Scots, German vs Low
 * German), so among near ties the declared language wins, then a language with a 639-1 code.
 */
export function detectLanguage(text: string, declared: string | null = null): string | null {
  const primary = declared?.trim().toLowerCase().split(/[-_]/)[0];
  const declaredCode = primary && /^[a-z]{2,3}$/.test(primary) ? primary : null;
  const sample = text.slice(0, SAMPLE_CHARS);
  if (sample.trim().length < MIN_CHARS) return declaredCode;
  const candidates = francAll(sample, { minLength: MIN_CHARS, only: CANDIDATES });
  const [best] = candidates;
  if (!best || best[0] === 'und') return declaredCode;
  const nearBest = candidates.filter(([, score]) => score >= best[1] * TIE_RATIO).map(([code]) => toIso6391(code));
  if (declaredCode && nearBest.includes(declaredCode)) return declaredCode;
  return nearBest.find((code) => code.length === 2) ?? toIso6391(best[0]);
}
