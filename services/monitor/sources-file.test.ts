import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkryaError } from '../../runtime/errors.ts';
import { DEFAULT_RECENCY_HOURS, formatProblem, lintSourcesText, loadSourcesFile, type SourcesProblem } from './sources-file.ts';

const FILE = 'topics/ai-browser/sources.json';

/** One source per line block, so every problem has an obvious line. */
function sourcesText(lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

const VALID = sourcesText([
  '{', //                                                                   1
  '  "cadence": "0 */6 * * *",', //                                         2
  '  "recency_hours": 72,', //                                              3
  '  "description": "AI browsers; the original tool wrote this field",', // 4
  '  "sources": [', //                                                      5
  '    {', //                                                               6
  '      "id": "public-web",', //                                           7
  '      "name": "Perplexity Comet and other AI browsers",', //             8
  '      "type": "runtime-retrieval",', //                                  9
  '      "capabilities": ["web_search", "news_search"],', //                10
  '      "queries": ["Perplexity Comet update", "Brave Leo AI assistant"],', // 11
  '      "languages": ["en"],', //                                          12
  '      "recency_hours": 12,', //                                          13
  '      "max_items": 40', //                                               14
  '    },', //                                                              15
  '    { "id": "legacy-list", "type": "manual", "items": ["x"] }', //       16
  '  ]', //                                                                 17
  '}', //                                                                   18
]);

function onlyProblem(text: string): SourcesProblem {
  const problems = lintSourcesText(FILE, text);
  expect(problems).toHaveLength(1);
  return problems[0]!;
}

/** VALID with line `line` (1-based) replaced. */
function withLine(line: number, replacement: string): string {
  const lines = VALID.split('\n');
  lines[line - 1] = replacement;
  return lines.join('\n');
}

describe('lintSourcesText', () => {
  it('finds nothing in a valid file with free text naming products, unknown fields and a source of another type', () => {
    expect(lintSourcesText(FILE, VALID)).toEqual([]);
  });

  it.each([
    ['a missing comma', withLine(12, '      "languages": ["en"]'), 13, '(syntax)'],
    ['a trailing comma', withLine(14, '      "max_items": 40,'), 15, '(syntax)'],
    ['a comment', withLine(13, '      // recency'), 13, '(syntax)'],
    ['an unterminated string', withLine(7, '      "id": "public-web,'), 7, '(syntax)'],
  ])('reports invalid JSON (%s) at the line of the syntax error', (_name, text, line, field) => {
    const problems = lintSourcesText(FILE, text);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatchObject({ file: FILE, line, field });
  });

  it.each([
    ['an unknown capability', withLine(10, '      "capabilities": ["web_search", "carrier_pigeon"],'), 10, 'sources[0].capabilities[1]'],
    ['a bad source id', withLine(7, '      "id": "Public Web",'), 7, 'sources[0].id'],
    ['a binding other than runtime', withLine(13, '      "binding": "static",'), 13, 'sources[0].binding'],
    ['max_items out of range', withLine(14, '      "max_items": 0'), 14, 'sources[0].max_items'],
    ['an unknown intent', withLine(3, '  "intent": "gossip",'), 3, 'intent'],
    ['a bad cadence interval', withLine(2, '  "cadence": { "every_minutes": 0 },'), 2, 'cadence.every_minutes'],
    ['a cadence that is not cron', withLine(2, '  "cadence": "every six hours",'), 2, 'cadence'],
  ])('reports %s at its line and field', (_name, text, line, field) => {
    expect(onlyProblem(text)).toMatchObject({ file: FILE, line, field });
  });

  it('reports a missing required field at the source object that lacks it', () => {
    const problem = onlyProblem(withLine(10, '      "capabilities_typo": ["web_search"],'));
    expect(problem).toMatchObject({ line: 6, column: 5, field: 'sources[0].capabilities' });
  });

  it('reports an empty sources list', () => {
    expect(onlyProblem('{\n  "sources": []\n}\n')).toMatchObject({ line: 2, field: 'sources' });
  });

  it('reports a duplicate source id at the second copy, naming the first', () => {
    const problem = onlyProblem(withLine(16, '    { "id": "public-web", "type": "manual" }'));
    expect(problem).toMatchObject({ line: 16, field: 'sources[1].id' });
    expect(problem.message).toContain('sources[0]');
  });

  it.each([
    ['a capability', withLine(10, '      "capabilities": ["web_search", "tavily"],'), 10, 'sources[0].capabilities[1]', 2],
    ['an id', withLine(7, '      "id": "tavily-news",'), 7, 'sources[0].id', 1],
    ['a feed', withLine(12, '      "feeds": ["https://api.tavily.com/feed"],'), 12, 'sources[0].feeds[0]', 1],
    ['a nested value of an unknown field', withLine(13, '      "routing": { "prefer": "Exa" },'), 13, 'sources[0].routing.prefer', 1],
  ])('flags a provider name in %s', (_name, text, line, field, count) => {
    const problems = lintSourcesText(FILE, text);
    // An unknown capability naming a provider is two problems: not a capability, and a provider name.
    expect(problems).toHaveLength(count);
    expect(problems.map((problem) => problem.field)).toEqual(Array(count).fill(field));
    expect(problems.every((problem) => problem.line === line)).toBe(true);
  });

  it.each(['provider', 'tool', 'skills', 'Adapter', 'vendor', 'engine', 'api'])('flags the provider-binding key %j', (key) => {
    const problem = onlyProblem(withLine(13, `      "${key}": "something-neutral",`));
    expect(problem).toMatchObject({ line: 13, field: `sources[0].${key}` });
  });

  it.each([
    ['queries', withLine(11, '      "queries": ["tavily vs exa vs brave search API comparison"],')],
    ['name', withLine(8, '      "name": "What Brave and Perplexity Comet ship",')],
    ['top-level description', withLine(4, '  "description": "we used to scrape this with firecrawl",')],
    ['a word that only contains a provider name', withLine(7, '      "id": "bravery-exams",')],
  ])('does not flag a product name in free text or inside another word (%s)', (_name, text) => {
    expect(lintSourcesText(FILE, text)).toEqual([]);
  });

  it('lists every problem of a file, sorted by line, not just the first family', () => {
    const text = sourcesText([
      '{',
      '  "intent": "gossip",',
      '  "sources": [',
      '    { "id": "a", "type": "runtime-retrieval", "capabilities": ["nope"] },',
      '    { "id": "a", "type": "runtime-retrieval", "capabilities": ["rss_feed"], "provider": "brave" }',
      '  ]',
      '}',
    ]);
    const problems = lintSourcesText(FILE, text);
    expect(problems.map((problem) => [problem.line, problem.field])).toEqual([
      [2, 'intent'],
      [4, 'sources[0].capabilities[0]'],
      [5, 'sources[1].id'],
      [5, 'sources[1].provider'],
    ]);
  });

  it('reads a file saved with a byte-order mark', () => {
    expect(lintSourcesText(FILE, `\uFEFF${VALID}`)).toEqual([]);
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['an empty file', ''],
  ])('reports a file that is %s', (_name, text) => {
    expect(lintSourcesText(FILE, text)).toHaveLength(1);
  });

  it('formats a problem as file:line:column: field: message', () => {
    expect(formatProblem({ file: FILE, line: 3, column: 5, field: 'sources[0].id', message: 'bad' })).toBe(`${FILE}:3:5: sources[0].id: bad`);
  });
});

describe('loadSourcesFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-sources-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function write(text: string): string {
    const file = path.join(dir, 'sources.json');
    fs.writeFileSync(file, text);
    return file;
  }

  it('returns only enabled runtime-retrieval sources, with defaults applied', () => {
    const file = write(JSON.stringify({
      sources: [
        { id: 'feeds', type: 'runtime-retrieval', capabilities: ['rss_feed'], feeds: ['feeds/a.xml'] },
        { id: 'off', type: 'runtime-retrieval', enabled: false, capabilities: ['web_search'] },
        { id: 'manual', type: 'manual', items: ['x'] },
      ],
    }));
    const topic = loadSourcesFile(file);
    expect(topic).toMatchObject({ file, cadence: null, recencyHours: DEFAULT_RECENCY_HOURS, intent: null, boostDomains: [] });
    expect(topic.sources).toEqual([{
      id: 'feeds', type: 'runtime-retrieval', enabled: true, capabilities: ['rss_feed'], binding: 'runtime',
      queries: [], languages: [], feeds: ['feeds/a.xml'], paths: [], urls: [], sites: [],
    }]);
  });

  it('reads the top-level settings', () => {
    const topic = loadSourcesFile(write(VALID.replace('"recency_hours": 72,', '"recency_hours": 72, "intent": "news", "boost_domains": ["example.com"],')));
    // The only source's own recency_hours (12) sets the window (issue 22: it was ignored for the file's 72).
    expect(topic).toMatchObject({ cadence: '0 */6 * * *', recencyHours: 12, intent: 'news', boostDomains: ['example.com'] });
    expect(topic.sources.map((source) => source.id)).toEqual(['public-web']);
  });

  it('loads the bundled fixture topics', () => {
    for (const topic of ['kafka-ops', 'rust-async']) {
      const loaded = loadSourcesFile(path.resolve(import.meta.dirname, '../../test/fixtures/topics', topic, 'sources.json'));
      expect(loaded.sources.length).toBeGreaterThan(0);
    }
  });

  it('throws CONFIG_INVALID listing every problem with its line', () => {
    const file = write(withLine(7, '      "id": "Public Web",').replace('"web_search", "news_search"', '"web_search", "tavily"'));
    let caught: unknown;
    try {
      loadSourcesFile(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SkryaError);
    const error = caught as SkryaError;
    expect(error.code).toBe('CONFIG_INVALID');
    const problems = error.details.problems as SourcesProblem[];
    expect(problems.map((problem) => [problem.line, problem.field])).toEqual([
      [7, 'sources[0].id'],
      [10, 'sources[0].capabilities[1]'],
      [10, 'sources[0].capabilities[1]'],
    ]);
    expect(error.message.split('\n')).toHaveLength(3);
    expect(error.message).toContain(`${file}:7:`);
  });

  it('throws CONFIG_INVALID for a file that cannot be read', () => {
    expect(() => loadSourcesFile(path.join(dir, 'missing.json'))).toThrowError(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
