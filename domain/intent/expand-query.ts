import type { Intent } from '../../schemas/ingest.ts';
import shippedGlossary from './zh-en-glossary.json' with { type: 'json' };
import shippedSynonyms from './technical-synonyms.json' with { type: 'json' };
import { buildGlossary, translateChinese, type Glossary } from './chinese-glossary.ts';
import { detectSignals, type DetectedSignal } from './detect-signals.ts';
import { tidyQuery } from './normalize-query.ts';
import { extractTopic } from './query-topic.ts';
import { splitComparison } from './split-comparison.ts';
import { applySynonyms, buildSynonymTable, type SynonymTable } from './technical-synonyms.ts';

export interface ExpansionVocabulary {
  synonyms: SynonymTable;
  glossary: Glossary;
}

/** The synonym table and glossary shipped beside this file, validated at import (a broken file fails loudly at start-up). */
export const SHIPPED_VOCABULARY: ExpansionVocabulary = {
  synonyms: buildSynonymTable(shippedSynonyms),
  glossary: buildGlossary(shippedGlossary),
};

export const DEFAULT_MAX_SUB_QUERIES = 5;

export interface ExpandOptions {
  /** The date whose year goes into status and news expansions; default now. */
  now?: Date;
  /** Signals already detected for this query (classifyQuery passes them); detected here otherwise. */
  signals?: readonly DetectedSignal[];
  vocabulary?: ExpansionVocabulary;
  maxSubQueries?: number;
}

/** Synonyms spelled out, then Chinese glossary terms in English: the form searched on English sources. */
function toEnglish(text: string, vocabulary: ExpansionVocabulary): string {
  return translateChinese(applySynonyms(text, vocabulary.synonyms), vocabulary.glossary).text;
}

function comparisonExpansions(query: string, signals: readonly DetectedSignal[], topic: string, english: (text: string) => string): string[] {
  const compared = splitComparison(query, signals);
  if (compared === null) return [`${topic} comparison`, `${topic} pros and cons`];
  const subjects = compared.subjects.map(english);
  const context = compared.context === '' ? '' : ` ${english(compared.context)}`;
  return [`${subjects.join(' vs ')}${context}`, ...subjects.map((subject) => `${subject} advantages${context}`)];
}

/** Spec 001 phase 2, per intent: the searches that cover what this kind of question needs. */
function intentExpansions(intent: Intent, topic: string, year: number, comparison: () => string[]): string[] {
  switch (intent) {
    case 'factual':
      return [`${topic} definition`, `${topic} explained overview`];
    case 'status':
      return [`${topic} latest ${year}`, `${topic} update release`];
    case 'comparison':
      return comparison();
    case 'tutorial':
      return [`${topic} tutorial`, `${topic} guide step by step`];
    case 'exploratory':
      return [`${topic} overview`, `${topic} ecosystem`, `${topic} use cases`];
    case 'news':
      return [`${topic} news this week ${year}`, `${topic} announcement latest`];
    case 'resource':
      return [`${topic} official documentation`, `${topic} GitHub`];
  }
}

/**
 * The sub-queries to search for one query: the query itself first, then its English/spelled-out
 * variant (k8s → Kubernetes, 异步编程 → async programming) when that differs, then the per-intent
 * expansions of its topic. Case-insensitively de-duplicated, at most `maxSubQueries` (5).
 */
export function expandQuery(query: string, intent: Intent, options: ExpandOptions = {}): string[] {
  const original = tidyQuery(query);
  if (original === '') return [];
  const vocabulary = options.vocabulary ?? SHIPPED_VOCABULARY;
  const signals = options.signals ?? detectSignals(query);
  const year = (options.now ?? new Date()).getUTCFullYear();
  const english = (text: string) => toEnglish(text, vocabulary);

  const topic = english(extractTopic(query, signals));
  const expansions = topic === '' ? [] : intentExpansions(intent, topic, year, () => comparisonExpansions(query, signals, topic, english));

  const unique = new Map<string, string>();
  for (const candidate of [original, english(original), ...expansions]) {
    const tidy = tidyQuery(candidate);
    const key = tidy.toLowerCase();
    if (tidy !== '' && !unique.has(key)) unique.set(key, tidy);
  }
  return [...unique.values()].slice(0, options.maxSubQueries ?? DEFAULT_MAX_SUB_QUERIES);
}
