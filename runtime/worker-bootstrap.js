// The first module of a worker thread started by runtime/worker-threads.ts: plain JavaScript, so it
// runs before anything is compiled, and turns on the on-disk compile cache (as bin/skrya.js does
// for the main thread) before it loads the TypeScript module the thread runs. A TypeScript entry
// would be type-stripped and compiled before it could turn the cache on, every start.
import module from 'node:module';

module.enableCompileCache?.();
await import(process.argv[2]);
// A thread is usually terminated, not ended: what it compiled is written now, or never.
module.flushCompileCache?.();
