/**
 * A scoring model from a JSON file (`skrya replay --model FILE`). A file either defines every
 * parameter, or names the shipped model it starts from (`"base": "skrya-default@<version>"`) and
 * lists only what it changes: objects merge key by key, numbers, strings and lists replace. The base
 * must be this Skrya's default exactly, so a model tag always means the same numbers. Every problem
 * is a CONFIG_INVALID error naming the file and the field to fix.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { DEFAULT_MODEL_ID, DEFAULT_SCORING_MODEL } from './default-model.ts';
import { compileScoringModel, scoringModelSchema, type ScoringModel } from './scoring-model.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `changes` over `base`: objects merge key by key, anything else replaces. */
function mergeOver(base: Json, changes: Json): Json {
  if (!isObject(base) || !isObject(changes)) return changes;
  const merged: Record<string, Json> = { ...base };
  for (const [key, value] of Object.entries(changes)) merged[key] = key in base ? mergeOver(base[key]!, value) : value;
  return merged;
}

function invalid(file: string, problem: string): SkryaError {
  return new SkryaError('CONFIG_INVALID', `scoring model file ${file}: ${problem}`);
}

export function loadScoringModel(file: string): ScoringModel {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw invalid(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): check the path`);
  }
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch (error) {
    throw invalid(file, `is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isObject(json)) throw invalid(file, 'must be a JSON object with id, version and the parameters (or a base and what it changes)');
  const { base, ...fields } = json;
  let definition: Json = fields;
  if (base !== undefined) {
    if (base !== DEFAULT_SCORING_MODEL.tag) {
      throw invalid(file, `base ${JSON.stringify(base)} is not this Skrya's default model ${DEFAULT_SCORING_MODEL.tag}: check your changes against the current default, then set "base": "${DEFAULT_SCORING_MODEL.tag}"`);
    }
    // The default's id, version and description describe the default, not the file's model.
    const defaults = { ranking: DEFAULT_SCORING_MODEL.definition.ranking, verdictFactors: DEFAULT_SCORING_MODEL.definition.verdictFactors, screening: DEFAULT_SCORING_MODEL.definition.screening };
    definition = mergeOver(defaults as unknown as Json, fields);
  }
  const parsed = scoringModelSchema.safeParse(definition);
  if (!parsed.success) throw invalid(file, `not a valid scoring model: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`);
  if (parsed.data.id === DEFAULT_MODEL_ID) throw invalid(file, `id ${DEFAULT_MODEL_ID} names the shipped model: give yours its own id`);
  return compileScoringModel(parsed.data, `scoring model file ${file}`);
}
