import { describe, expect, it } from 'vitest';
import { digestStrategy, renderDigest, type DigestItem, type DigestRun } from './render-digest.ts';

const item = (overrides: Partial<DigestItem> & { title: string }): DigestItem => ({
  url: `https://example.org/${overrides.title.toLowerCase().replace(/\W+/g, '-')}`,
  summary: null,
  sources: [{ provider: 'brave', url: null }],
  score: 0.5,
  published_at: '2026-02-20T00:00:00Z',
  ...overrides,
});
const run = (items: DigestItem[], title = 'Deno 2'): DigestRun => ({ topicId: 'deno', title, items, stats: { retrieved: items.length + 3, providers: ['exa', 'brave'] } });

describe('digestStrategy', () => {
  it.each([
    [0, 'list'], [1, 'list'], [5, 'list'], [6, 'themes'], [15, 'themes'], [16, 'overview'], [200, 'overview'],
  ] as const)('%i items → %s', (count, strategy) => {
    expect(digestStrategy(count)).toBe(strategy);
  });
});

describe('renderDigest: up to 5 items, a ranked list', () => {
  const items = [
    item({ title: 'Announcing Deno 2', url: 'https://deno.com/blog/v2.0', summary: 'Deno 2 is here. It is backwards compatible with Node.', score: 0.91, sources: [{ provider: 'brave', url: 'https://deno.com/blog/v2.0' }, { provider: 'exa', url: 'https://deno.com/blog/v2.0' }] }),
    item({ title: 'Deno 2 first look', url: 'https://medium.com/@a/deno', summary: 'I tried it for a week.', score: 0.72, sources: [{ provider: 'tavily', url: 'https://medium.com/@a/deno' }] }),
  ];
  const digest = renderDigest(run(items));

  it('starts with the answer, stated directly when corroborated and fresh, then lists the sources', () => {
    expect(digest).toBe(
      [
        '# Deno 2',
        '',
        'Deno 2 is here. ([Announcing Deno 2](https://deno.com/blog/v2.0))',
        '',
        '## Sources',
        '',
        '1. [Announcing Deno 2](https://deno.com/blog/v2.0) — Deno 2 is here. It is backwards compatible with Node. `[brave, exa]` ⭐0.91',
        '2. [Deno 2 first look](https://medium.com/@a/deno) — I tried it for a week. `[tavily]` ⭐0.72',
        '',
      ].join('\n'),
    );
  });

  it('attributes a single-source answer ("According to …")', () => {
    const single = renderDigest(run([items[1]!]));
    expect(single).toContain('According to medium.com, I tried it for a week.');
  });

  it('leaves out scores when the run had no intent', () => {
    expect(renderDigest(run(items.map((entry) => ({ ...entry, score: null }))))).not.toContain('⭐');
  });

  it('escapes link text and keeps one line per item', () => {
    const digest = renderDigest(run([item({ title: 'Arrays [1]\nand more', url: 'https://example.org/a(b)', summary: 'Line one\nline two' })]));
    expect(digest).toContain('1. [Arrays \\[1\\] and more](https://example.org/a%28b%29) — Line one line two');
  });

  it('cuts a long summary at 160 characters (code points, emoji and lone surrogates included) with an ellipsis', () => {
    /** What a snippet is: the summary on one line, its first 159 code points and an ellipsis when it has more than 160. */
    const snippetOf = (summary: string) => {
      const characters = [...summary.replace(/\s+/g, ' ').trim()];
      return characters.length <= 160 ? characters.join('') : `${characters.slice(0, 159).join('').trimEnd()}…`;
    };
    const summaries = [
      'a'.repeat(160),
      'a'.repeat(161),
      `${'🙂'.repeat(100)}`,
      `${'🙂'.repeat(160)}`,
      `${'🙂'.repeat(161)}`,
      `${'x'.repeat(158)}🙂🙂 tail`,
      `${'x'.repeat(158)} \uD83D${'y'.repeat(10)}`,
      `${'word '.repeat(40)}\n\n${'more '.repeat(40)}`,
      `${'中文'.repeat(200)}`,
    ];
    for (const summary of summaries) {
      const line = renderDigest(run([item({ title: 'Long', summary: `Lead. ${summary}`, score: null })])).split('\n').find((text) => text.startsWith('1. '))!;
      expect(line).toBe(`1. [Long](https://example.org/long) — ${snippetOf(`Lead. ${summary}`)} \`[brave]\``);
    }
  });

  it('says so when there is nothing', () => {
    expect(renderDigest(run([]))).toContain('No results for this run');
  });
});

describe('renderDigest: conflicts', () => {
  it('states that sources disagree, with what each says', () => {
    const digest = renderDigest(
      run([
        item({ title: 'Deno 2 by the numbers', url: 'https://deno.com/blog/numbers', summary: 'Deno 2 shipped with 500 contributors.', score: 0.9 }),
        item({ title: 'Deno 2 review', url: 'https://www.infoq.com/news/deno-2', summary: 'The release had 450 contributors in total.', score: 0.8 }),
        item({ title: 'Deno 2 notes', url: 'https://deno.com/blog/notes', summary: 'Thanks to all 500 contributors.', score: 0.7 }),
      ]),
    );
    expect(digest).toContain(
      '> ⚠ Sources disagree on **contributors**: deno.com says “500 contributors” ([Deno 2 by the numbers](https://deno.com/blog/numbers)), infoq.com says “450 contributors” ([Deno 2 review](https://www.infoq.com/news/deno-2)).',
    );
  });

  it.each([
    ['the same number everywhere', 'Has 500 contributors.', 'Counts 500 contributors.'],
    ['different versions are not claims', 'Deno 2 release is out.', 'Deno 1 release was earlier.'],
    ['different units', 'Has 500 contributors.', 'Has 450 stars.'],
  ])('does not flag %s', (_name, first, second) => {
    const digest = renderDigest(run([item({ title: 'A', url: 'https://a.example/1', summary: first }), item({ title: 'B', url: 'https://b.example/1', summary: second })]));
    expect(digest).not.toContain('disagree');
  });

  it('does not count one site twice', () => {
    const digest = renderDigest(run([item({ title: 'A', url: 'https://a.example/1', summary: 'Has 500 contributors.' }), item({ title: 'B', url: 'https://a.example/2', summary: 'Has 450 contributors.' })]));
    expect(digest).not.toContain('disagree');
  });
});

const themedItems = [
  item({ title: 'Deno 2 npm compatibility', summary: 'Import npm packages directly.', score: 0.9 }),
  item({ title: 'Deno 2 workspaces', summary: 'Monorepo workspaces arrive.', score: 0.85 }),
  item({ title: 'Using npm packages in Deno 2', summary: 'How npm compatibility works.', score: 0.8 }),
  item({ title: 'Deno 2 performance benchmarks', summary: 'HTTP server performance compared.', score: 0.75 }),
  item({ title: 'Deno 2 npm migration guide', summary: 'Moving a Node project with npm.', score: 0.7 }),
  item({ title: 'Deno 2 performance tuning', summary: 'Profiling tips.', score: 0.65 }),
  item({ title: 'Deno 2 JSR registry', summary: 'Publishing to JSR.', score: 0.6 }),
];

describe('renderDigest: 6 to 15 items, grouped by theme', () => {
  const digest = renderDigest(run(themedItems));

  it('groups by shared keyword, best theme first, and leaves the rest under "Other results"', () => {
    const headings = digest.split('\n').filter((line) => line.startsWith('**'));
    expect(headings).toEqual(['**npm** (3)', '**performance** (2)', '**Other results**']);
    expect(digest.indexOf('Deno 2 npm compatibility')).toBeLessThan(digest.indexOf('Using npm packages'));
    expect(digest.split('**Other results**')[1]).toContain('Deno 2 workspaces');
    expect(digest.split('**Other results**')[1]).toContain('Deno 2 JSR registry');
  });

  it('puts the answer before the themes and tags each item with its providers', () => {
    const lines = digest.split('\n');
    expect(lines[2]).toMatch(/^According to example\.org, Import npm packages directly\./);
    expect(digest).toContain('- [Deno 2 workspaces](https://example.org/deno-2-workspaces) — Monorepo workspaces arrive. `[brave]`');
  });

  it('renders the same run identically', () => {
    expect(renderDigest(run([...themedItems]))).toBe(digest);
  });

  it('labels a theme with a second word all its items share', () => {
    const labelled = renderDigest(run([...themedItems.slice(0, 5), item({ title: 'Deno 2 workspaces monorepo', summary: 'More on workspaces.' }), item({ title: 'Monorepo workspaces in Deno 2', summary: 'Workspaces again.' })]));
    expect(labelled).toContain('**monorepo · workspaces** (3)');
  });
});

describe('renderDigest: more than 15 items, an overview', () => {
  const many = Array.from({ length: 18 }, (_unused, index) =>
    item({
      title: `${index % 2 === 0 ? 'Deno 2 npm story' : 'Deno 2 performance story'} ${index + 1}`,
      url: `https://site${index % 4}.example/${index}`,
      summary: `Story number ${index + 1}.`,
      score: 1 - index / 100,
      sources: [{ provider: index % 3 === 0 ? 'exa' : 'brave', url: null }],
    }),
  );
  const digest = renderDigest(run(many));

  it('opens with an overview, then the top 5, then a pointer to the rest', () => {
    const lines = digest.split('\n');
    expect(lines[2]).toMatch(/^18 results from 4 sites via brave, exa\. Main themes: npm \(8\), performance \(7\)\. According to site0\.example, Story number 1\./);
    expect(digest).toContain('**Top 5 results:**');
    expect(digest).toContain('5. [Deno 2 npm story 5]');
    expect(digest).not.toContain('6. [');
    expect(lines.at(-2)).toBe('Found 18 results in total (21 retrieved before merging copies), covering brave, exa; the other 13 are in latest-ingest.json. Ask about a theme (npm, performance) to go deeper.');
  });
});
