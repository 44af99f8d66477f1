#!/usr/bin/env node
// Runs the TypeScript CLI directly: no build step between a clone and the first command.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
