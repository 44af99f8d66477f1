/** kafkajs's own modules, for tests that check Skrya's replacements of them give the same results. */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** kafkajs's own module, compiled from its file apart from the module cache (which holds ours). */
export function kafkajsOriginal<T>(moduleFile: string): T {
  const file = require.resolve(moduleFile);
  const original = new Module(file);
  original.filename = file;
  original.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(path.dirname(file));
  (original as unknown as { _compile(source: string, file: string): void })._compile(fs.readFileSync(file, 'utf8'), file);
  return original.exports as T;
}

/** The seven headers every Skrya message carries, with a scored item's values: what record encoding and decoding tests carry. */
export const SKRYA_HEADERS = {
  'skrya-trace-id': '3f1c2b9a-1234-4cde-9abc-0123456789ab',
  'skrya-stage': 'scorer',
  'skrya-schema-subject': 'skrya.scored-results-value',
  'skrya-schema-id': '12',
  'skrya-tenant': 'acme',
  'skrya-topic-id': 'kafka-news',
  'skrya-run-id': 'run-20261205-abcdef',
};
