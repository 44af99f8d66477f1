import { describe, expect, it } from 'vitest';
import { BGE_SMALL_ZH, loadEncoder } from './sentence-encoder.ts';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

// Fetches the encoder through Maven on a machine's first run (~16 MB, cached under ~/.cache/skrya/encoders).
describe('sentence encoder (bge-small-zh from the langchain4j jar on Maven Central)', () => {
  it('gives unit-length vectors that put paraphrases closer than unrelated text, in English and Chinese', { timeout: 300_000 }, async () => {
    const encoder = await loadEncoder(BGE_SMALL_ZH);
    const [swapEn, swapEnAgain, cakeEn, swapZh, swapZhAgain, cakeZh] = await encoder.encode([
      'How do I add swap space on Ubuntu?',
      'Steps to enable a swap file on an Ubuntu server',
      'A chocolate cake recipe with three eggs',
      '如何在 Ubuntu 上添加交换空间',
      'Ubuntu 服务器开启 swap 文件的步骤',
      '三个鸡蛋的巧克力蛋糕做法',
    ]);
    for (const vector of [swapEn, swapZh, cakeZh]) {
      expect(vector).toHaveLength(BGE_SMALL_ZH.dimensions);
      expect(cosine(vector!, vector!)).toBeCloseTo(1, 4);
    }
    expect(cosine(swapEn!, swapEnAgain!)).toBeGreaterThan(cosine(swapEn!, cakeEn!));
    expect(cosine(swapZh!, swapZhAgain!)).toBeGreaterThan(cosine(swapZh!, cakeZh!));
  });

  it('cuts a text longer than the model reads instead of failing', { timeout: 300_000 }, async () => {
    const encoder = await loadEncoder(BGE_SMALL_ZH);
    const [long] = await encoder.encode(['swap '.repeat(1_000)]);
    expect(long).toHaveLength(BGE_SMALL_ZH.dimensions);
    expect(Number.isFinite(long?.[0])).toBe(true);
  });
});
