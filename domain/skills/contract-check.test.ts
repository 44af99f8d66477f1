import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compareContract } from './contract-check.ts';

const contract = z.object({
  query: z.string().min(1),
  count: z.number().int().default(10),
  mode: z.enum(['a', 'b']).optional(),
  tags: z.array(z.string()).optional(),
  note: z.string().nullable(),
}).strict();

const declared = () => ({
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 3 },
    count: { type: 'integer', default: 10 },
    mode: { type: 'string', enum: ['b', 'a'] },
    tags: { type: 'array', items: { type: 'string' } },
    note: { type: ['null', 'string'] },
  },
  required: ['note', 'query'],
  additionalProperties: false,
});

type Declared = ReturnType<typeof declared> & Record<string, unknown>;

describe('compareContract', () => {
  it('accepts the same shape, whatever the order and whatever the constraints', () => {
    expect(compareContract(contract, declared(), 'input')).toEqual([]);
  });

  it.each<[string, (schema: Declared) => unknown, string]>([
    ['a property only the declaration has', (s) => { (s.properties as Record<string, unknown>).extra = { type: 'string' }; }, '$.extra'],
    ['a property only zod has', (s) => { delete (s.properties as Record<string, unknown>).tags; }, '$.tags'],
    ['a different type', (s) => { s.properties.count = { type: 'number', default: 10 }; }, '$.count'],
    ['a different enum', (s) => { s.properties.mode = { type: 'string', enum: ['a', 'c'] }; }, '$.mode'],
    ['different items', (s) => { s.properties.tags = { type: 'array', items: { type: 'integer' } }; }, '$.tags[]'],
    ['a different required set', (s) => { s.required = ['query']; }, '$'],
    ['an open object', (s) => { s.additionalProperties = true as unknown as false; }, '$'],
    ['nullability lost', (s) => { (s.properties as Record<string, unknown>).note = { type: 'string' }; }, '$.note'],
  ])('reports %s', (_name, mutate, path) => {
    const schema = declared() as Declared;
    mutate(schema);
    expect(compareContract(contract, schema, 'input').map((mismatch) => mismatch.path)).toContain(path);
  });

  it('judges defaults by direction: required on output, optional on input', () => {
    const output = { ...declared(), required: ['count', 'note', 'query'] };
    expect(compareContract(contract, output, 'output')).toEqual([]);
    expect(compareContract(contract, output, 'input')).not.toEqual([]);
  });
});
