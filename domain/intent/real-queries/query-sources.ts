/**
 * Questions and task headings written by other people, for measuring (and perhaps training) the
 * intent classifier on wording its generator cannot write: the FAQ and the manuals of pinned Debian
 * packages, in English and Chinese. Fetched like the screening side's real-text corpus (apt into
 * ~/.cache/skrya/corpora/debian, never committed). Only bookworm base versions are pinned: a
 * security or point-release version (+debNuM) leaves the archive when the next one ships.
 */
import type { PinnedDocuments } from '../../screening/real-text/sources.ts';

export interface QuerySource extends PinnedDocuments {
  /** The file names (directly under `under`) that are documents; the first group names the document. */
  files: RegExp;
  /** The lowest heading level read (h1 chapter titles of a FAQ are topics, not questions). */
  minLevel: number;
  /** A single-file FAQ: each numbered chapter ("7" of "7.31 Why …") is a document of its own. */
  chapters?: boolean;
  /** At most this many candidates, taken in the order of a hash of their keys (a manual has hundreds of headings). */
  cap?: number;
}

export const QUERY_SOURCES: readonly QuerySource[] = [
  { name: 'debian-faq-en', work: 'debian-faq', package: 'debian-faq', version: '11.1', lang: 'en', under: 'usr/share/doc/debian/FAQ', files: /^(.+)\.en\.html$/, minLevel: 2 },
  { name: 'debian-faq-zh', work: 'debian-faq', package: 'debian-faq-zh-cn', version: '11.1', lang: 'zh', under: 'usr/share/doc/debian/FAQ/zh-cn', files: /^(.+)\.zh-cn\.html$/, minLevel: 2 },
  { name: 'zsh-faq-en', work: 'zsh-faq', package: 'zsh-doc', version: '5.9-4', lang: 'en', under: 'usr/share/doc/zsh-common/html', files: /^(FAQ\d\d)\.html$/, minLevel: 2 },
  // The FAQ chapter of the Securing Debian manual, in both languages.
  { name: 'harden-doc-faq-en', work: 'harden-doc-faq', package: 'harden-doc', version: '3.19+nmu1', lang: 'en', under: 'usr/share/doc/harden-doc/html/en-US', files: /^(ch12(?:s\d\d)?|debian-sec-team-faq)\.html$/, minLevel: 2 },
  { name: 'harden-doc-faq-zh', work: 'harden-doc-faq', package: 'harden-doc', version: '3.19+nmu1', lang: 'zh', under: 'usr/share/doc/harden-doc/html/zh-CN', files: /^(ch12(?:s\d\d)?|debian-sec-team-faq)\.html$/, minLevel: 2 },
  // The R FAQ is one file: its chapters are the documents.
  { name: 'r-faq-en', work: 'r-faq', package: 'r-doc-html', version: '4.2.2.20221110-2', lang: 'en', under: 'usr/share/R/doc/manual', files: /^(R-FAQ)\.html$/, minLevel: 3, chapters: true },
  // Section headings of a manual: tasks ("Configuring the Server", "设置加密分区") and topics.
  { name: 'debian-handbook-en', work: 'debian-handbook', package: 'debian-handbook', version: '11.20220922', lang: 'en', under: 'usr/share/doc/debian-handbook/html/en-US', files: /^(.+)\.html$/, minLevel: 2, cap: 120 },
  { name: 'debian-handbook-zh', work: 'debian-handbook', package: 'debian-handbook', version: '11.20220922', lang: 'zh', under: 'usr/share/doc/debian-handbook/html/zh-CN', files: /^(.+)\.html$/, minLevel: 2, cap: 120 },
  // The New Maintainers' Guide, in both languages: task and topic headings of packaging ("Where to ask for help", "到何处求助").
  { name: 'maint-guide-en', work: 'maint-guide', package: 'maint-guide', version: '1.2.53', lang: 'en', under: 'usr/share/doc/maint-guide/html', files: /^(.+)\.en\.html$/, minLevel: 2 },
  { name: 'maint-guide-zh', work: 'maint-guide', package: 'maint-guide-zh-cn', version: '1.2.53', lang: 'zh', under: 'usr/share/doc/maint-guide-zh-cn/html', files: /^(.+)\.zh-cn\.html$/, minLevel: 2 },
  // The fetchmail FAQ is one file whose questions are numbered by section letter ("G2. Where do I find …"): each letter is a document.
  { name: 'fetchmail-faq-en', work: 'fetchmail-faq', package: 'fetchmail', version: '6.4.37-1', lang: 'en', under: 'usr/share/doc/fetchmail', files: /^(fetchmail-FAQ)\.html$/, minLevel: 2, chapters: true },
  // Section headings of the Debian Reference (the same package the screening side reads), capped like the handbook's.
  { name: 'debian-reference-en', work: 'debian-reference', package: 'debian-reference-en', version: '2.100', lang: 'en', under: 'usr/share/debian-reference', files: /^(ch\d\d|ap[a-z]|pr\d\d)\.en\.html$/, minLevel: 2, cap: 100 },
  { name: 'debian-reference-zh', work: 'debian-reference', package: 'debian-reference-zh-cn', version: '2.100', lang: 'zh', under: 'usr/share/debian-reference', files: /^(ch\d\d|ap[a-z]|pr\d\d)\.zh-cn\.html$/, minLevel: 2, cap: 100 },
];
