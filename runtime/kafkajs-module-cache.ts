/** Replacing one of kafkajs's internal modules in Node's module cache before kafkajs loads it. */
import Module, { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Puts `replacement` in the place of kafkajs's module `file`, so `loadedBy` (the kafkajs module that
 * requires it) gets it. Nothing to do when it is in place already (the replacing module evaluated
 * again, as a test runner may). Throws if `loadedBy` was loaded already: the replacement would not
 * take, silently.
 */
export function replaceKafkajsModule(options: { file: string; loadedBy: string; replacement: object; marker: symbol; replacedBy: string }): void {
  const file = require.resolve(options.file);
  if ((require.cache[file]?.exports as Record<symbol, unknown> | undefined)?.[options.marker] === true) return;
  if (require.cache[require.resolve(options.loadedBy)] !== undefined) {
    throw new Error(`kafkajs was loaded before ${options.replacedBy}: import runtime/kafkajs-replacements.ts before kafkajs, or ${options.file} is kafkajs's own`);
  }
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = Object.assign(options.replacement, { [options.marker]: true });
  require.cache[file] = module;
}
