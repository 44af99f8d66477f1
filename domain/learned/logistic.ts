/**
 * Multinomial logistic regression over hashed sparse vectors (binary = two classes), trained by
 * seeded SGD with AdaGrad step sizes and L2 shrinkage. Deterministic: the same examples, options and
 * seed give the same weights bit for bit (single-threaded, fixed iteration order).
 */
import { createRandom, shuffle } from './random.ts';
import type { SparseVector } from './features.ts';

export interface TrainOptions {
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** Per-class weight on the loss (e.g. more weight on the rarer positives). */
  classWeights?: readonly number[];
}

export interface LinearModel {
  classes: number;
  dimensions: number;
  /** Row-major: weights[feature * classes + class]. */
  weights: Float32Array;
  bias: Float32Array;
}

export function createModel(classes: number, bits: number): LinearModel {
  const dimensions = 1 << bits;
  return { classes, dimensions, weights: new Float32Array(dimensions * classes), bias: new Float32Array(classes) };
}

export function logits(model: LinearModel, vector: SparseVector): Float64Array {
  const scores = Float64Array.from(model.bias);
  const { classes, weights } = model;
  for (let index = 0; index < vector.indices.length; index++) {
    const base = (vector.indices[index] ?? 0) * classes;
    const value = vector.values[index] ?? 0;
    for (let label = 0; label < classes; label++) scores[label] = (scores[label] ?? 0) + (weights[base + label] ?? 0) * value;
  }
  return scores;
}

export function softmax(scores: Float64Array): Float64Array {
  const max = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - max));
  const sum = exps.reduce((total, value) => total + value, 0);
  return exps.map((value) => value / sum);
}

export function probabilities(model: LinearModel, vector: SparseVector): Float64Array {
  return softmax(logits(model, vector));
}

export function train(examples: ReadonlyArray<{ vector: SparseVector; label: number }>, classes: number, bits: number, options: TrainOptions): LinearModel {
  const model = createModel(classes, bits);
  const squared = new Float32Array(model.weights.length);
  const biasSquared = new Float64Array(classes);
  const random = createRandom(options.seed);
  const order = examples.map((_example, index) => index);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (const index of shuffle(random, order)) {
      const example = examples[index];
      if (example === undefined) continue;
      const probs = probabilities(model, example.vector);
      const weight = options.classWeights?.[example.label] ?? 1;
      for (let label = 0; label < classes; label++) {
        const gradient = weight * ((probs[label] ?? 0) - (label === example.label ? 1 : 0));
        if (gradient === 0) continue;
        biasSquared[label] = (biasSquared[label] ?? 0) + gradient * gradient;
        model.bias[label] = (model.bias[label] ?? 0) - (options.learningRate * gradient) / Math.sqrt((biasSquared[label] ?? 0) + 1e-8);
        for (let at = 0; at < example.vector.indices.length; at++) {
          const slot = (example.vector.indices[at] ?? 0) * classes + label;
          const current = model.weights[slot] ?? 0;
          const step = gradient * (example.vector.values[at] ?? 0) + options.l2 * current;
          squared[slot] = (squared[slot] ?? 0) + step * step;
          model.weights[slot] = current - (options.learningRate * step) / Math.sqrt((squared[slot] ?? 0) + 1e-8);
        }
      }
    }
  }
  return model;
}

/** Weights and bias as bytes (little-endian float32), for the cache file. */
export function serializeModel(model: LinearModel): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(model.classes, 0);
  header.writeUInt32LE(model.dimensions, 4);
  return Buffer.concat([header, Buffer.from(model.bias.buffer, model.bias.byteOffset, model.bias.byteLength), Buffer.from(model.weights.buffer, model.weights.byteOffset, model.weights.byteLength)]);
}

/**
 * The model in `bytes` (serializeModel's layout). Where the floats start 4-aligned in memory (as in
 * a file packArtifact wrote and readFileSync read) the weights are a view of those bytes, not a
 * copy: a model is megabytes, and copying it was most of a classify run's own work.
 */
export function deserializeModel(bytes: Buffer): LinearModel {
  const classes = bytes.readUInt32LE(0);
  const dimensions = bytes.readUInt32LE(4);
  const floatBytes = bytes.subarray(8);
  const aligned = floatBytes.byteOffset % Float32Array.BYTES_PER_ELEMENT === 0 ? floatBytes : Uint8Array.from(floatBytes);
  if (aligned.byteLength !== (classes + classes * dimensions) * Float32Array.BYTES_PER_ELEMENT) throw new Error(`model file holds ${aligned.byteLength / Float32Array.BYTES_PER_ELEMENT} floats, expected ${classes + classes * dimensions}`);
  const floats = new Float32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / Float32Array.BYTES_PER_ELEMENT);
  return { classes, dimensions, bias: floats.subarray(0, classes), weights: floats.subarray(classes) };
}

/**
 * A model file: a JSON header (calibration, figures, recipe) followed by the weights. The header is
 * padded with spaces (still the same JSON) so the floats start at a multiple of 4 bytes and can be
 * read in place.
 */
export function packArtifact(meta: unknown, model: LinearModel): Buffer {
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const padded = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, ' ')]);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(padded.length, 0);
  return Buffer.concat([length, padded, serializeModel(model)]);
}

export function unpackArtifact(bytes: Buffer): { meta: unknown; model: LinearModel } {
  const length = bytes.readUInt32LE(0);
  return { meta: JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as unknown, model: deserializeModel(bytes.subarray(4 + length)) };
}
