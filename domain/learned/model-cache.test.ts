import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrBuild, modelKey } from './model-cache.ts';

const saved = process.env.SKRYA_MODEL_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.SKRYA_MODEL_DIR;
  else process.env.SKRYA_MODEL_DIR = saved;
});

describe('model cache', () => {
  it('builds once, then reads the stored bytes; a new key rebuilds and removes the stale file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skrya-models-'));
    process.env.SKRYA_MODEL_DIR = dir;
    let builds = 0;
    const build = () => {
      builds++;
      return Buffer.from(`weights ${builds}`);
    };
    expect(loadOrBuild('toy', 'k1', build)).toMatchObject({ built: true, bytes: Buffer.from('weights 1') });
    expect(loadOrBuild('toy', 'k1', build)).toMatchObject({ built: false, bytes: Buffer.from('weights 1') });
    writeFileSync(join(dir, 'other-k1.bin'), 'another model');
    expect(loadOrBuild('toy', 'k2', build)).toMatchObject({ built: true, bytes: Buffer.from('weights 2') });
    expect(readdirSync(dir).sort()).toEqual(['other-k1.bin', 'toy-k2.bin']);
    expect(existsSync(join(dir, 'toy-k1.bin'))).toBe(false);
  });

  it('keys a model by its recipe and the contents of its sources', () => {
    const sources = ['domain/learned/features.ts'];
    expect(modelKey({ bits: 18 }, sources)).toBe(modelKey({ bits: 18 }, sources));
    expect(modelKey({ bits: 17 }, sources)).not.toBe(modelKey({ bits: 18 }, sources));
    expect(modelKey({ bits: 18 }, [...sources, 'domain/learned/logistic.ts'])).not.toBe(modelKey({ bits: 18 }, sources));
  });
});
