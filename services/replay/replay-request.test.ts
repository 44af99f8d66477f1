import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReplayRequest, defaultReplayId, parseInstant, type ReplayRequestInput } from './replay-request.ts';

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-replay-request-'));
  fs.mkdirSync(path.join(root, 'acme', 'topics', 'kafka-news'), { recursive: true });
  // A topic whose sources were removed but whose runs remain can still be replayed.
  fs.mkdirSync(path.join(root, 'acme', 'runs', 'retired', 'ingest'), { recursive: true });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const valid: ReplayRequestInput = { tenant: 'acme', topic: 'kafka-news', since: '2026-11-29T00:00:00Z', until: '2026-11-30T00:00:00+08:00' };

describe('parseInstant', () => {
  it.each([
    ['2026-11-30T08:00:00Z', '2026-11-30T08:00:00.000Z'],
    ['2026-11-30T16:00:00+08:00', '2026-11-30T08:00:00.000Z'],
    [' 2026-11-30T08:00:00.5Z ', '2026-11-30T08:00:00.500Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(parseInstant(input, '--since')).toBe(expected);
  });

  it.each(['2026-11-30', '2026-11-30T08:00:00', '2026-02-30T00:00:00Z', '2027-02-29T00:00:00Z', 'yesterday', '1', ''])('refuses %j', (input) => {
    expect(() => parseInstant(input, '--since')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('defaultReplayId', () => {
  it('is made from the range alone, and equal instants give equal ids', () => {
    const id = defaultReplayId(parseInstant('2026-11-29T00:00:00Z', 's'), parseInstant('2026-11-30T00:00:00Z', 'u'));
    expect(id).toBe('replay-20261129t000000000z-20261130t000000000z');
    expect(defaultReplayId(parseInstant('2026-11-29T08:00:00+08:00', 's'), parseInstant('2026-11-30T00:00:00.000Z', 'u'))).toBe(id);
  });
});

describe('buildReplayRequest', () => {
  it('normalizes the range and defaults the replay id', () => {
    expect(buildReplayRequest(valid, root)).toEqual({
      tenant: 'acme', topicId: 'kafka-news', since: '2026-11-29T00:00:00.000Z', until: '2026-11-29T16:00:00.000Z',
      replayId: 'replay-20261129t000000000z-20261129t160000000z', promote: false,
    });
  });

  it('accepts a topic known only by its runs, an explicit id and --promote', () => {
    expect(buildReplayRequest({ ...valid, topic: 'retired', replayId: 'new-model', promote: true }, root)).toMatchObject({ topicId: 'retired', replayId: 'new-model', promote: true });
  });

  it.each<[string, Partial<ReplayRequestInput>, string]>([
    ['unknown tenant', { tenant: 'globex' }, 'INVALID_INPUT'],
    ['unknown topic', { topic: 'nope' }, 'INVALID_INPUT'],
    ['since after until', { since: '2026-12-01T00:00:00Z' }, 'INVALID_INPUT'],
    ['since equal to until', { since: '2026-11-29T16:00:00Z' }, 'INVALID_INPUT'],
    ['a date without a time zone', { until: '2026-11-30T00:00:00' }, 'INVALID_INPUT'],
    ['an invalid tenant id', { tenant: '../acme' }, 'INVALID_ID'],
    ['an invalid topic id', { topic: 'Kafka News' }, 'INVALID_ID'],
    ['an invalid replay id', { replayId: '../../escape' }, 'INVALID_ID'],
    ['an empty replay id', { replayId: '' }, 'INVALID_ID'],
  ])('refuses %s with %s', (_name, override, code) => {
    expect(() => buildReplayRequest({ ...valid, ...override }, root)).toThrow(expect.objectContaining({ code }));
  });

  it('names the known topics when the topic is unknown', () => {
    expect(() => buildReplayRequest({ ...valid, topic: 'nope' }, root)).toThrow(/known topics: kafka-news, retired/);
  });
});
