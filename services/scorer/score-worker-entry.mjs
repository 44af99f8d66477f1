// A worker thread does not inherit the main thread's TypeScript loader (Node 20): register tsx
// here, as bin/skrya.js does, then load the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./score-worker.ts');
