/**
 * Builds the learned classifiers into the git-ignored model cache (.skrya/models, or
 * SKRYA_MODEL_DIR), and with `all` the packed language-detection database (eld-database.ts):
 *   node scripts/train-models.ts [injection|intent|all] [--force]
 * Without --force a model whose recipe and sources are unchanged is left as it is (the install
 * step and the test setup call this). Training is deterministic: the same sources give the same
 * bytes; the file name carries the hash of the recipe and of every source that defines the model.
 */
import { existsSync, rmSync } from 'node:fs';
import { injectionModel } from '../domain/screening/learned-model.ts';
import { detectSignals } from '../domain/intent/detect-signals.ts';
import { intentModel } from '../domain/intent/learned-intent.ts';
import { modelDir } from '../domain/learned/model-cache.ts';
import { eldDatabaseKey, loadEldDatabase } from '../domain/text/eld-database.ts';
import { isSkryaError } from '../runtime/errors.ts';

const which = process.argv.slice(2).find((argument) => !argument.startsWith('--')) ?? 'all';
const force = process.argv.includes('--force');
if (!['injection', 'intent', 'all'].includes(which)) {
  process.stderr.write(`train-models: unknown model "${which}": use injection, intent or all\n`);
  process.exit(2);
}

function build(name: string, key: () => string, load: () => void): void {
  const path = `${modelDir()}/${name}-${key()}.bin`;
  if (force && existsSync(path)) rmSync(path);
  const fresh = !existsSync(path);
  const started = performance.now();
  try {
    load();
  } catch (error) {
    // A corpus that cannot be fetched is the operator's to fix: say what, without a stack.
    if (!isSkryaError(error)) throw error;
    process.stderr.write(`train-models: ${name}: ${error.code}: ${error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${name}: ${fresh ? `built in ${((performance.now() - started) / 1000).toFixed(1)} s` : 'up to date'} → ${path}\n`);
}

if (which !== 'intent') {
  build('injection', () => injectionModel.keyOf(), () => {
    const model = injectionModel();
    process.stdout.write(`injection: validation recall ${model.meta.validation.recall} (promptfoo validation prompts ${model.meta.validation.outsideRecall}), FPR ${model.meta.validation.falsePositiveRate}, hard-negative FPR ${model.meta.validation.hardFalsePositiveRate}, real-text FPR Debian ${model.meta.validation.realTextFalsePositiveRate.debian}, npm ${model.meta.validation.realTextFalsePositiveRate.npm} at passage probability ${model.meta.operatingThreshold.toFixed(4)}\n`);
  });
}
if (which !== 'injection') build('intent', () => intentModel.keyOf(), () => void intentModel(detectSignals));
if (which === 'all') build('eld-small', eldDatabaseKey, () => void loadEldDatabase());
