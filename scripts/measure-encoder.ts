/**
 * Options (b) and (c) of issue 13 measured on the validation split (never test): a pretrained
 * sentence encoder (services/learned/sentence-encoder.ts) with a small trained logistic head,
 * alone, added to the hashed n-gram features, and as the second stage of a cascade.
 *   node scripts/measure-encoder.ts [intent|injection] [bge|minilm]
 * Every model here learns from the train split only, so validation is out-of-family for all.
 * Intent: accuracy of the model's pick, and of the shipped rules-first policy on top of it.
 * Injection: a page's score is its most suspicious chunk; recall at FPR ≤ 0.03 (hard negatives
 * ≤ 0.10) with the threshold placed on validation itself (separability), ROC AUC overall and in the
 * band where the linear model is least sure (where a cascade would call the encoder).
 * Downloads the encoder on first use (Maven Central, cached under ~/.cache/skrya/encoders).
 */
import { INTENTS } from '../schemas/ingest.ts';
import { probabilities, train } from '../services/learned/logistic.ts';
import { BGE_SMALL_ZH, loadEncoder, MINILM_L6, type SentenceEncoder } from '../services/learned/sentence-encoder.ts';
import type { SparseVector } from '../services/learned/features.ts';
import { createRandom } from '../services/learned/random.ts';
import { generateIntentQueries } from '../services/retriever/intent/corpus/generate-queries.ts';
import { detectSignals } from '../services/retriever/intent/detect-signals.ts';
import { decideIntent, INTENT_RECIPE, queryVector } from '../services/retriever/intent/learned-intent.ts';
import { pickIntent } from '../services/retriever/intent/pick-intent.ts';
import { generateInjectionCorpus } from '../services/scorer/injection/corpus/generate-corpus.ts';
import { chunkText, INJECTION_RECIPE, itemLogit, modelText, trainingPassages } from '../services/scorer/injection/learned-model.ts';

const [which = 'intent', encoderName = 'bge'] = process.argv.slice(2);
const encoder = await loadEncoder(encoderName === 'minilm' ? MINILM_L6 : BGE_SMALL_ZH);
const LANGS = ['all', 'en', 'zh', 'mixed'] as const;
/** The embedding as a sparse vector at the top of a 2^bits space, scaled by alpha, after any hashed buckets. */
function joined(embedding: Float32Array, bits: number, alpha: number, hashed?: SparseVector): SparseVector {
  const offset = (1 << bits) - embedding.length;
  const indices = [...(hashed?.indices ?? [])];
  const values = [...(hashed?.values ?? [])];
  embedding.forEach((value, dimension) => {
    indices.push(offset + dimension);
    values.push(value * alpha);
  });
  return { indices: Int32Array.from(indices), values: Float32Array.from(values) };
}
const timed = async (texts: readonly string[], use: SentenceEncoder) => {
  const started = performance.now();
  const vectors = await use.encode(texts);
  process.stdout.write(`${use.spec.name}: ${((performance.now() - started) / Math.max(1, texts.length)).toFixed(2)} ms per text over ${texts.length} texts\n`);
  return vectors;
};

async function intent(): Promise<void> {
  const rows = generateIntentQueries().filter((row) => row.split !== 'test');
  const embeddings = await timed(rows.map((row) => row.query), encoder);
  const bits = 18;
  const variants = [
    { name: 'hashed n-grams + rule signals (shipped recipe)', vector: (index: number) => queryVector(rows[index]?.query ?? '', detectSignals(rows[index]?.query ?? ''), { ...INTENT_RECIPE, features: { ...INTENT_RECIPE.features, bits: bits - 1 } }), epochs: INTENT_RECIPE.training.epochs },
    { name: 'encoder + logistic head', vector: (index: number) => joined(embeddings[index] ?? new Float32Array(), bits, 1), epochs: 30 },
    { name: 'hashed + encoder (α 1)', vector: (index: number) => joined(embeddings[index] ?? new Float32Array(), bits, 1, queryVector(rows[index]?.query ?? '', detectSignals(rows[index]?.query ?? ''), { ...INTENT_RECIPE, features: { ...INTENT_RECIPE.features, bits: bits - 1 } })), epochs: 10 },
    { name: 'hashed + encoder (α 2)', vector: (index: number) => joined(embeddings[index] ?? new Float32Array(), bits, 2, queryVector(rows[index]?.query ?? '', detectSignals(rows[index]?.query ?? ''), { ...INTENT_RECIPE, features: { ...INTENT_RECIPE.features, bits: bits - 1 } })), epochs: 10 },
  ];
  process.stdout.write('\n| intent model (trained on train) | validation accuracy, model pick | with the shipped rules-first policy |\n|---|---|---|\n');
  for (const variant of variants) {
    const fit = rows.flatMap((row, index) => (row.split === 'train' ? [{ vector: variant.vector(index), label: INTENTS.indexOf(row.intent) }] : []));
    const model = train(fit, INTENTS.length, bits, { ...INTENT_RECIPE.training, epochs: variant.epochs });
    const predictions = rows.map((row, index) => {
      if (row.split !== 'validation') return null;
      const probs = probabilities(model, variant.vector(index));
      let best = 0;
      for (let label = 1; label < probs.length; label++) if ((probs[label] ?? 0) > (probs[best] ?? 0)) best = label;
      const modelPick = INTENTS[best] ?? 'exploratory';
      const signals = detectSignals(row.query);
      const byPolicy = decideIntent(pickIntent(signals), signals, { intent: modelPick, probabilities: Object.fromEntries(INTENTS.map((name, label) => [name, probs[label] ?? 0])) as Record<(typeof INTENTS)[number], number> });
      return { row, modelPick, byPolicy };
    });
    const accuracy = (pick: 'modelPick' | 'byPolicy') => LANGS.map((lang) => {
      const scored = predictions.filter((entry) => entry !== null && (lang === 'all' || entry.row.lang === lang));
      return `${lang} ${(scored.filter((entry) => entry?.[pick] === entry?.row.intent).length / Math.max(1, scored.length)).toFixed(3)}`;
    }).join(', ');
    process.stdout.write(`| ${variant.name} | ${accuracy('modelPick')} | ${accuracy('byPolicy')} |\n`);
  }
}

async function injection(): Promise<void> {
  const corpus = generateInjectionCorpus();
  const trainItems = corpus.filter((item) => item.split === 'train');
  const validation = corpus.filter((item) => item.split === 'validation');
  // Head training set: every payload chunk, and one random clean chunk a page (the encoder costs ~10 ms a chunk).
  const random = createRandom(3);
  const texts: string[] = [];
  const labels: number[] = [];
  for (const item of trainItems) {
    texts.push(modelText(item.title));
    labels.push(item.titleIsPayload ? 1 : 0);
    const clean: string[] = [];
    for (const chunk of chunkText(item.content)) {
      const covered = Math.max(0, ...item.spans.map((span) => Math.max(0, Math.min(chunk.end, span[1]) - Math.max(chunk.start, span[0]))));
      const text = modelText(item.content.slice(chunk.start, chunk.end));
      if (covered >= 0.3 * (chunk.end - chunk.start)) {
        texts.push(text);
        labels.push(1);
      } else if (covered === 0) clean.push(text);
    }
    if (clean.length > 0) {
      texts.push(clean[Math.floor(random() * clean.length)] ?? '');
      labels.push(0);
    }
  }
  const embeddings = await timed(texts, encoder);
  const head = train(embeddings.map((embedding, index) => ({ vector: joined(embedding, 10, 1), label: labels[index] ?? 0 })), 2, 10, { epochs: 30, learningRate: 0.2, l2: 1e-7, seed: 13 });
  const linear = train(trainingPassages(trainItems, INJECTION_RECIPE), 2, INJECTION_RECIPE.features.bits, INJECTION_RECIPE.training);
  const scored: Array<{ lang: string; positive: boolean; hard: boolean; linear: number; encoder: number }> = [];
  for (const item of validation) {
    const chunks = [item.title, ...chunkText(item.content).map((chunk) => item.content.slice(chunk.start, chunk.end))].map(modelText);
    let worst = -Infinity;
    for (const embedding of await encoder.encode(chunks)) {
      const probs = probabilities(head, joined(embedding, 10, 1));
      worst = Math.max(worst, Math.log((probs[1] ?? 0) / (probs[0] ?? 1)));
    }
    scored.push({ lang: item.lang, positive: item.label === 'injection', hard: item.difficulty === 'hard', linear: itemLogit(linear, item, INJECTION_RECIPE), encoder: worst });
  }
  type Row = (typeof scored)[number];
  const standard = (key: 'linear' | 'encoder') => {
    const values = scored.map((row) => row[key]);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const deviation = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
    return (row: Row) => (row[key] - mean) / deviation;
  };
  const linearZ = standard('linear');
  const encoderZ = standard('encoder');
  const auc = (rows: readonly Row[], score: (row: Row) => number) => {
    const positives = rows.filter((row) => row.positive);
    const negatives = rows.filter((row) => !row.positive);
    let wins = 0;
    for (const positive of positives) for (const negative of negatives) wins += score(positive) > score(negative) ? 1 : score(positive) === score(negative) ? 0.5 : 0;
    return positives.length * negatives.length === 0 ? 'n/a' : (wins / (positives.length * negatives.length)).toFixed(3);
  };
  const recall = (score: (row: Row) => number) => {
    const benign = scored.filter((row) => !row.positive);
    const hard = benign.filter((row) => row.hard);
    const threshold = [...new Set(scored.map(score))].sort((a, b) => a - b).find((candidate) => benign.filter((row) => score(row) >= candidate).length / benign.length <= 0.03 && hard.filter((row) => score(row) >= candidate).length / Math.max(1, hard.length) <= 0.1) ?? Infinity;
    return LANGS.map((lang) => {
      const positives = scored.filter((row) => row.positive && (lang === 'all' || row.lang === lang));
      return `${lang} ${(positives.filter((row) => score(row) >= threshold).length / Math.max(1, positives.length)).toFixed(3)}`;
    }).join(', ');
  };
  const band = [...scored].sort((a, b) => a.linear - b.linear).slice(Math.floor(scored.length * 0.5), Math.floor(scored.length * 0.9));
  process.stdout.write('\n| injection score (trained on train) | validation recall at FPR ≤ 0.03 | AUC | AUC in the linear model\'s uncertain band (50th–90th percentile) |\n|---|---|---|---|\n');
  const variants: Array<[string, (row: Row) => number]> = [['hashed n-grams (shipped recipe)', (row) => row.linear], ['encoder + logistic head', (row) => row.encoder], ['sum of standardized scores', (row) => linearZ(row) + encoderZ(row)], ['larger of standardized scores', (row) => Math.max(linearZ(row), encoderZ(row))]];
  for (const [name, score] of variants) process.stdout.write(`| ${name} | ${recall(score)} | ${auc(scored, score)} | ${auc(band, score)} |\n`);
}

await (which === 'injection' ? injection() : intent());
