import { describe, expect, it } from 'vitest';
import shippedSynonyms from './technical-synonyms.json' with { type: 'json' };
import { applySynonyms, buildSynonymTable } from './technical-synonyms.ts';

const table = buildSynonymTable(shippedSynonyms);

describe('applySynonyms', () => {
  it.each<[string, string]>([
    ['k8s operator', 'Kubernetes operator'],
    ['K8S operator', 'Kubernetes operator'],
    ['js and ts', 'JavaScript and TypeScript'],
    ['postgres vs mysql', 'PostgreSQL vs mysql'],
    ['Go 泛型', 'Golang 泛型'],
    ['rust vs go', 'rust vs Golang'],
    ['零基础学 go 语言', '零基础学 Golang 语言'],
    ['ci/cd pipeline', 'CI/CD pipeline'],
    ['wasm (k8s)', 'WebAssembly (Kubernetes)'],
    ['用k8s还是swarm', '用Kubernetes还是swarm'],
    ['Pyhton install', 'Python install'],
    ['Kubernetes operator', 'Kubernetes operator'],
  ])('%s → %s', (text, expected) => {
    expect(applySynonyms(text, table)).toBe(expected);
  });

  it.each([
    'Google search tips',
    'goal setting',
    'let go of it',
    'go to market strategy',
    'next.js routing',
    'vue.js tips',
    'jsonnet basics',
    'pg-13 movies',
    'ml of water',
    'ts-node setup',
    'latent space',
  ])('leaves %s alone', (text) => {
    expect(applySynonyms(text, table)).toBe(text);
  });

  it('never replaces inside a replacement (one pass)', () => {
    expect(applySynonyms('nodejs', table)).toBe('Node.js');
  });
});

describe('buildSynonymTable', () => {
  it('ships a maintained table', () => {
    expect(table.entries.size).toBeGreaterThanOrEqual(50);
    for (const [term, canonical] of [['k8s', 'Kubernetes'], ['js', 'JavaScript'], ['go', 'Golang'], ['postgres', 'PostgreSQL'], ['py', 'Python']]) {
      expect(table.entries.get(term ?? '')?.canonical).toBe(canonical);
    }
  });

  it.each<[string, unknown]>([
    ['not an object', 'k8s=Kubernetes'],
    ['wrong version', { ...shippedSynonyms, version: 2 }],
    ['an ambiguous term without its form', { ...shippedSynonyms, entries: [{ term: 'go', canonical: 'Golang', ambiguous: true }] }],
    ['an unknown field', { ...shippedSynonyms, extra: true }],
    ['an unknown field in an entry', { ...shippedSynonyms, entries: [{ term: 'k8s', canonical: 'Kubernetes', note: 'x' }] }],
    ['an empty canonical name', { ...shippedSynonyms, entries: [{ term: 'k8s', canonical: '' }] }],
    ['ambiguous given as text', { ...shippedSynonyms, entries: [{ term: 'go', canonical: 'Golang', ambiguous: 'yes', form: 'Go' }] }],
    ['an empty context term', { ...shippedSynonyms, contextTerms: ['kafka', ''] }],
  ])('rejects %s with CONFIG_INVALID', (_case, raw) => {
    expect(() => buildSynonymTable(raw)).toThrowError(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
