/**
 * Real benign text written by other people, for the injection model, from two kinds of pinned
 * packages, both fetched into a cache outside the repo (fetch-packages.ts) and never committed:
 * - Debian: documentation shipped in Debian packages (manuals, how-tos full of imperatives to
 *   people, security guides, man pages), in English and Chinese. Only bookworm base versions are
 *   pinned: the archive drops a security or point-release version (+debNuM) when the next one
 *   ships, which would break the build on a fresh machine.
 * - npm: READMEs and shipped markdown docs of LLM SDKs and frameworks (chat APIs, system prompts,
 *   messages with a `system` role, tool calling, chat templates, prompt-injection guards), the
 *   genre Debian lacks and where the model still raised false alarms (README "Quality"). Each pin
 *   holds the tarball's sha512 integrity as the registry published it, checked on every fetch, and
 *   the licence read from the package (only permissive ones: MIT, Apache-2.0, BSD, ISC).
 * The generated corpus is one author's wording; versions are pinned so a build is the same text on
 * every machine.
 */
/** Documents in a pinned package: what every real-text source, for either classifier, names. */
export interface PinnedDocuments {
  /** Names this source's documents (a package can hold several languages). */
  name: string;
  /**
   * The work its documents belong to: a document and its translation (same work, same file name
   * without the language suffix) are one family and sit in one split, since translations keep
   * untranslated paragraphs and code word for word.
   */
  work: string;
  package: string;
  version: string;
  lang: 'en' | 'zh';
  /** Folder inside the package whose files are documents. */
  under: string;
}

interface SourceBase extends PinnedDocuments {
  /** A document's file name ends with this. */
  suffix: string;
  format: 'html' | 'man' | 'markdown';
  /** File names (the last path segment) that are indexes, boilerplate or change logs, not prose. */
  skip?: RegExp;
}

export interface DebianSource extends SourceBase {
  origin: 'debian';
}

export interface NpmSource extends SourceBase {
  origin: 'npm';
  /** The tarball's Subresource Integrity as the registry lists it (`npm view <pkg>@<version> dist.integrity`). */
  integrity: string;
  /** As the package states it (package.json, or its LICENSE file where package.json names none). */
  license: 'MIT' | 'Apache-2.0' | 'ISC' | 'BSD-2-Clause' | 'BSD-3-Clause';
}

export type RealTextSource = DebianSource | NpmSource;

const DEBIAN_SOURCES: readonly DebianSource[] = [
  { origin: 'debian', name: 'debian-reference-en', work: 'debian-reference', package: 'debian-reference-en', version: '2.100', lang: 'en', under: 'usr/share/debian-reference', suffix: '.en.html', format: 'html', skip: /^index\./ },
  { origin: 'debian', name: 'harden-doc-en', work: 'harden-doc', package: 'harden-doc', version: '3.19+nmu1', lang: 'en', under: 'usr/share/doc/harden-doc/html/en-US', suffix: '.html', format: 'html', skip: /^index\.html$/ },
  { origin: 'debian', name: 'manpages-en', work: 'manpages', package: 'manpages', version: '6.03-2', lang: 'en', under: 'usr/share/man', suffix: '.gz', format: 'man' },
  // System calls and C library functions: how-tos with code samples (EXAMPLES sections).
  { origin: 'debian', name: 'manpages-dev-en', work: 'manpages', package: 'manpages-dev', version: '6.03-2', lang: 'en', under: 'usr/share/man', suffix: '.gz', format: 'man' },
  { origin: 'debian', name: 'debian-reference-zh', work: 'debian-reference', package: 'debian-reference-zh-cn', version: '2.100', lang: 'zh', under: 'usr/share/debian-reference', suffix: '.zh-cn.html', format: 'html', skip: /^index\./ },
  { origin: 'debian', name: 'harden-doc-zh', work: 'harden-doc', package: 'harden-doc', version: '3.19+nmu1', lang: 'zh', under: 'usr/share/doc/harden-doc/html/zh-CN', suffix: '.html', format: 'html', skip: /^index\.html$/ },
  { origin: 'debian', name: 'manpages-zh', work: 'manpages', package: 'manpages-zh', version: '1.6.4.0-1', lang: 'zh', under: 'usr/share/man/zh_CN', suffix: '.gz', format: 'man' },
  { origin: 'debian', name: 'lilypond-doc-zh', work: 'lilypond-doc', package: 'lilypond-doc-html-zh', version: '2.24.1-2', lang: 'zh', under: 'usr/share/doc/lilypond/html', suffix: '.zh.html', format: 'html' },
];

/** promptfoo also ships other people's jailbreak prompts as data (outside-injections.ts reads them). */
export const PROMPTFOO_PACKAGE = { package: 'promptfoo', version: '0.123.1', integrity: 'sha512-9WzFeH6L+5E49R6CTulBo/WzmVPNcMpvgUZAyEsNlaKgpfmF9vV82jKUG1rQ+QH79P7gYAaxeY3TvLDV+x0Cbg==', license: 'MIT' } as const;

/**
 * agent-security-scanner-mcp ships a labelled prompt-injection benchmark corpus (benchmarks/corpus/
 * prompt_injection.txt; scanner-benchmark.ts reads it).
 */
export const SCANNER_BENCHMARK_PACKAGE = { package: 'agent-security-scanner-mcp', version: '4.5.9', integrity: 'sha512-bDZAsbF09dAp8l0IBXmcj4vUew76w7UU7YtYd+/eP2lJHiXd0SiuTeDVdCQqQNcfWdGx6h7JgAarbFMUSjqBSA==', license: 'MIT' } as const;

/** Change logs and contributor guides are release notes and process, not documentation of the API. */
const NOT_DOCS = /^(CHANGELOG|CONTRIBUTING|LICENSE|SECURITY|CODE_OF_CONDUCT)/i;

const NPM_SOURCES: readonly NpmSource[] = [
  // Vercel AI SDK: the whole documentation site ships in the package (prompts, tools, agents, chat UI).
  { origin: 'npm', name: 'npm-ai-docs', work: 'ai', package: 'ai', version: '7.0.173', integrity: 'sha512-dLea37zT1h7cjkUsBprU4Rq35HJqhtHHaq1jTAXjHQoyfpeswpgCrhjZJWdWc10gjEAxmz114py7iLGQ3xIMxw==', license: 'Apache-2.0', lang: 'en', under: 'package/docs', suffix: '.mdx', format: 'markdown' },
  // README plus the API references of each resource (responses, realtime, chat completions).
  { origin: 'npm', name: 'npm-openai', work: 'openai', package: 'openai', version: '7.59.0', integrity: 'sha512-wPYKJkLPFEdNJ2tThSg4jE1Ptsv4X3u8g8LIvu0Qz/UIhsKeCzl73rl48PtQsDVrJL/ku0liXOsbyd2TsRsPJw==', license: 'Apache-2.0', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-anthropic-sdk', work: 'anthropic-sdk', package: '@anthropic-ai/sdk', version: '1.15.0', integrity: 'sha512-N6noVzTApqN4S7XQvaxjDJtoxlDj36lAdj1DfDmh4puzUJjVlR7cYPLJa8Ch2pRaBhRd3of/4a5apg8Wn52g0A==', license: 'Apache-2.0', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-google-genai', work: 'google-genai', package: '@google/genai', version: '3.3.0', integrity: 'sha512-XLjXedj0X8UrULZz1GnlTMSQxBDFdr+NCKZkOBaSVVYqmK30C6FCnKW31Ppn0ItO9DpNspCHFui257kPNpumKQ==', license: 'Apache-2.0', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-mistralai', work: 'mistralai', package: '@mistralai/mistralai', version: '2.7.0', integrity: 'sha512-zCrx6MtNpcz+EL/Nqvg55QubSgmfwJfBmd3d3wSYfJGfnvlNnWcJYlxEW5xQpS3KR6A5qK9KUyRBwMDIWnyVGA==', license: 'Apache-2.0', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-ollama', work: 'ollama', package: 'ollama', version: '0.6.4', integrity: 'sha512-KzM6b5Sq0TgipeMTdImuELr/V4eNqrTf37PRzUTHCPPieFmboYw6qPn+pX7+lg0nSP1jsKwy4AFkiQFXhqHeZA==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-langchain-core', work: 'langchain-core', package: '@langchain/core', version: '1.4.0', integrity: 'sha512-4FLE0OoPu4hFFcGX4ep3o/BWTXVcE0hQroxB9z3PzWKqZV9+WAqlqmH30We6YUFMMc/1Vzkfa/q+PTioaAkoDw==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-langchain', work: 'langchain', package: 'langchain', version: '1.5.14', integrity: 'sha512-/orHDk5xbNSIJc9UhwmxFYHXbr/3RaBeQ3zX0xovEWfPg7Lmj8EJCMOXIUTCe2UtsFgfbyWtlwh51NM562LnZQ==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-llamaindex', work: 'llamaindex', package: 'llamaindex', version: '0.12.1', integrity: 'sha512-/tXXITk/iVGBycOFaDhev6dgTBIr6Ycu4FoPIt6A5JcEAiB6ujONjiV36flVXUR8JdqwMtS767XMjV+36nV4yQ==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-groq-sdk', work: 'groq-sdk', package: 'groq-sdk', version: '1.6.0', integrity: 'sha512-ggMgo6n84aZdNObgkSbSxWrdAq4wABsViIRb5e4N15bMUtDLZVhqlgZOI7X4TeqdBMdaVUOuUdZxAZIp06u0vw==', license: 'Apache-2.0', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  // package.json names no licence; the LICENSE file in the tarball is MIT.
  { origin: 'npm', name: 'npm-cohere-ai', work: 'cohere-ai', package: 'cohere-ai', version: '8.1.0', integrity: 'sha512-Ae+J8axaskTrZYbMWw1jTcZgf/vbHftY/YHY1L815u2xjUzRw4LkJyL90GX1MDEjQLSqcBOTpzkwpE8zNT/5tg==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-huggingface-inference', work: 'huggingface-inference', package: '@huggingface/inference', version: '4.13.30', integrity: 'sha512-d5iD7UxHFH5X4ndNhwn3eFT/P9M08RRcsWDoko40//9lgNCCCn87TziwcKWf7ztvoKOm8d29W+lrYO4ZZvyAnA==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  // Chat templates (Jinja) as models ship them.
  { origin: 'npm', name: 'npm-huggingface-jinja', work: 'huggingface-jinja', package: '@huggingface/jinja', version: '0.5.11', integrity: 'sha512-YzEzwM5oQf4r0vs7ifWQ+yuVR1YkAHrjERQ+a8WRsStHHp4NRBg+NesjiFc+X2AFUpRvvrIeHDS1xFy9jY/IjQ==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-huggingface-transformers', work: 'huggingface-transformers', package: '@huggingface/transformers', version: '4.3.2', integrity: 'sha512-V3+dqf3iWlRYJ9I9GreM3zGQd0lAXnnoPeddmkOQYWAEE4l/+Fi6p7tx/qVUJlKQgLXGim2W76rTOzz+eC0i7g==', license: 'Apache-2.0', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  // Guards and red-team tools: documentation that names attacks ("ignore previous instructions") to explain them.
  { origin: 'npm', name: 'npm-llm-guard', work: 'llm-guard', package: 'llm-guard', version: '0.1.9', integrity: 'sha512-4lvVg8tedMwFZ3KfNa8nJpXgASYf8e2nExSn1/1ZJprlcaCRIL58JuuTM84JawCdfqvmZTMcIRgH5QXaUwv8wQ==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-rebuff', work: 'rebuff', package: 'rebuff', version: '0.0.3', integrity: 'sha512-MUjZbcSOwJ495yY0IDhfLmtzJZzUeucJK9pdk+E4JmIx8XWdI1FoegNyCjhIZ3X6cE+oWDagma+QfgUdI4esUw==', license: 'Apache-2.0', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  { origin: 'npm', name: 'npm-promptfoo', work: 'promptfoo', package: 'promptfoo', version: '0.123.1', integrity: PROMPTFOO_PACKAGE.integrity, license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
  // Chinese: Coze's README and its Chinese translation (one work), Baidu Qianfan's README (Chinese).
  { origin: 'npm', name: 'npm-coze-api-en', work: 'coze-api', package: '@coze/api', version: '1.3.9', integrity: 'sha512-wDotCNH66yqEOQP1oDM7ujm9LKCg2ONfriODBSC4trjdrQfuUIaq21riuYnsKWgjKALz1jSNpjbQqJ5psOXFYQ==', license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: /^(CHANGELOG|CONTRIBUTING|LICENSE)|\.zh-CN\.md$/i },
  { origin: 'npm', name: 'npm-coze-api-zh', work: 'coze-api', package: '@coze/api', version: '1.3.9', integrity: 'sha512-wDotCNH66yqEOQP1oDM7ujm9LKCg2ONfriODBSC4trjdrQfuUIaq21riuYnsKWgjKALz1jSNpjbQqJ5psOXFYQ==', license: 'MIT', lang: 'zh', under: 'package', suffix: '.zh-CN.md', format: 'markdown' },
  { origin: 'npm', name: 'npm-qianfan-zh', work: 'qianfan', package: '@baiducloud/qianfan', version: '0.2.4', integrity: 'sha512-ZCbdMJEDTDX8wyh2pzkOWa28JfYCQa60sAchb9MoYg3tpZ6fh2uHOUDMxb2+BDHLw1XC2/9e2OGEE7qbhyuGnw==', license: 'ISC', lang: 'zh', under: 'package', suffix: '.md', format: 'markdown', skip: NOT_DOCS },
];

export const REAL_TEXT_SOURCES: readonly RealTextSource[] = [...DEBIAN_SOURCES, ...NPM_SOURCES];
