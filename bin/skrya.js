#!/usr/bin/env node
// Runs the TypeScript CLI on Node's own type stripping: no build step and no loader between a
// clone and the first command. An older Node cannot load it, so it is told what to install first.
import module from 'node:module';
import { assertSupportedNode } from '../scripts/node-runtime.mjs';

assertSupportedNode('skrya');
// Compiled code (and stripped TypeScript) cached on disk between runs: most of a command's start-up.
module.enableCompileCache?.();
await import('../cli/main.ts');
