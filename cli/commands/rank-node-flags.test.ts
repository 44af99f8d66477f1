import { mkdtemp, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FLAGGED_INPUT_BYTES, rankWantsNodeFlags } from './rank-node-flags.ts';

describe('rankWantsNodeFlags', () => {
  let folder: string;
  let small: string;
  let justUnder: string;
  let large: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'skrya-rank-flags-'));
    small = path.join(folder, 'small.jsonl');
    await writeFile(small, '{"url": "https://example.com/a", "title": "A", "snippet": "a"}\n');
    // Sparse files: only their sizes matter here.
    justUnder = path.join(folder, 'just-under.jsonl');
    await writeFile(justUnder, '');
    await truncate(justUnder, FLAGGED_INPUT_BYTES - 1);
    large = path.join(folder, 'large.jsonl');
    await writeFile(large, '');
    await truncate(large, FLAGGED_INPUT_BYTES);
  });

  it('wants them for a file of FLAGGED_INPUT_BYTES or more, not for a smaller one', () => {
    expect(rankWantsNodeFlags(['rank', '--jsonl', large])).toBe(true);
    expect(rankWantsNodeFlags(['rank', '--jsonl', justUnder])).toBe(false);
    expect(rankWantsNodeFlags(['rank', '--intent', 'status', '--jsonl', small, '--query', 'a'])).toBe(false);
  });

  it('reads --jsonl=file too, and the last --jsonl given, as the command does', () => {
    expect(rankWantsNodeFlags(['rank', `--jsonl=${large}`])).toBe(true);
    expect(rankWantsNodeFlags(['rank', '--jsonl', large, '--jsonl', small])).toBe(false);
    expect(rankWantsNodeFlags(['rank', '--jsonl', small, `--jsonl=${large}`])).toBe(true);
  });

  it('wants them for stdin and other streams, whose size is known only once read', () => {
    expect(rankWantsNodeFlags(['rank', '--jsonl', '-'])).toBe(true);
    expect(rankWantsNodeFlags(['rank', '--jsonl=-'])).toBe(true);
    // A device, as a pipe or process substitution would be: not a regular file.
    expect(rankWantsNodeFlags(['rank', '--jsonl', '/dev/null'])).toBe(true);
  });

  it('wants none without an input to read: a file that cannot be read (the command reports it), no --jsonl, or --jsonl with no value', () => {
    expect(rankWantsNodeFlags(['rank', '--jsonl', path.join(folder, 'missing.jsonl')])).toBe(false);
    // A name the file system refuses outright (stat throws ENAMETOOLONG): still the command's to report.
    expect(rankWantsNodeFlags(['rank', '--jsonl', path.join(folder, 'a'.repeat(300))])).toBe(false);
    expect(rankWantsNodeFlags(['rank', '--help'])).toBe(false);
    expect(rankWantsNodeFlags(['rank', '--jsonl'])).toBe(false);
  });
});
