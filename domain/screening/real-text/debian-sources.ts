/**
 * Real benign text written by other people, for the injection model: documentation shipped in
 * Debian packages (manuals, how-tos full of imperatives to people, security guides, man pages), in
 * English and Chinese. The generated corpus is one author's wording; pages about prompts, chat
 * APIs, code samples and security writing by other hands were where the model raised false alarms
 * (README "Quality"). Versions are pinned so a build is the same text on every machine; the
 * packages are fetched with apt into a cache outside the repo (fetch-debian.ts), never committed.
 * Only bookworm base versions are pinned: the archive drops a security or point-release version
 * (+debNuM) when the next one ships, which would break the build on a fresh machine.
 */
export interface DebianSource {
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
  /** A document's file name ends with this. */
  suffix: string;
  format: 'html' | 'man';
  /** File names (relative to `under`) that are indexes or boilerplate, not prose. */
  skip?: RegExp;
}

export const DEBIAN_SOURCES: readonly DebianSource[] = [
  { name: 'debian-reference-en', work: 'debian-reference', package: 'debian-reference-en', version: '2.100', lang: 'en', under: 'usr/share/debian-reference', suffix: '.en.html', format: 'html', skip: /^index\./ },
  { name: 'harden-doc-en', work: 'harden-doc', package: 'harden-doc', version: '3.19+nmu1', lang: 'en', under: 'usr/share/doc/harden-doc/html/en-US', suffix: '.html', format: 'html', skip: /^index\.html$/ },
  { name: 'manpages-en', work: 'manpages', package: 'manpages', version: '6.03-2', lang: 'en', under: 'usr/share/man', suffix: '.gz', format: 'man' },
  // System calls and C library functions: how-tos with code samples (EXAMPLES sections).
  { name: 'manpages-dev-en', work: 'manpages', package: 'manpages-dev', version: '6.03-2', lang: 'en', under: 'usr/share/man', suffix: '.gz', format: 'man' },
  { name: 'debian-reference-zh', work: 'debian-reference', package: 'debian-reference-zh-cn', version: '2.100', lang: 'zh', under: 'usr/share/debian-reference', suffix: '.zh-cn.html', format: 'html', skip: /^index\./ },
  { name: 'harden-doc-zh', work: 'harden-doc', package: 'harden-doc', version: '3.19+nmu1', lang: 'zh', under: 'usr/share/doc/harden-doc/html/zh-CN', suffix: '.html', format: 'html', skip: /^index\.html$/ },
  { name: 'manpages-zh', work: 'manpages', package: 'manpages-zh', version: '1.6.4.0-1', lang: 'zh', under: 'usr/share/man/zh_CN', suffix: '.gz', format: 'man' },
  { name: 'lilypond-doc-zh', work: 'lilypond-doc', package: 'lilypond-doc-html-zh', version: '2.24.1-2', lang: 'zh', under: 'usr/share/doc/lilypond/html', suffix: '.zh.html', format: 'html' },
];
