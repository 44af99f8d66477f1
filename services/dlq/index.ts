/** Dead letters for operators: which to list and re-drive, how to show them, and the ledger that re-drives each once. */
export { letterDetail, letterJson, letterLine } from './format-letter.ts';
export { acquireRedriveLock, ledgerFile, openRedriveLedger } from './redrive-ledger.ts';
export { letterAddress, matchesFilter, parseLetterAddress, parseLetterFilter, planRedrive, type LetterFilter, type RedrivePlan } from './select-letters.ts';
