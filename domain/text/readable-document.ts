/** Main-content extraction: Mozilla Readability over a linkedom document (no browser, no jsdom). */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { cleanText } from './clean-text.ts';
import { htmlToText } from './html.ts';

export interface ReadableDocument {
  title: string;
  text: string;
  excerpt: string;
  publishedTime: string | null;
  siteName: string | null;
  /** The page's declared language (html lang), if any. */
  declaredLanguage: string | null;
}

export function readableDocument(html: string): ReadableDocument {
  const { document } = parseHTML(html);
  const titleTag = cleanText(document.querySelector('title')?.textContent);
  const declaredLanguage = document.documentElement?.getAttribute('lang') || null;
  const metaDate = metaContent(document, ['article:published_time', 'date', 'dc.date', 'pubdate']);
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100 }).parse();
  if (!article) {
    const text = htmlToText(html).text;
    return { title: titleTag, text, excerpt: '', publishedTime: metaDate, siteName: null, declaredLanguage };
  }
  return {
    title: cleanText(article.title) || titleTag,
    text: article.content ? htmlToText(article.content).text : normalizeParagraphs(article.textContent ?? ''),
    excerpt: cleanText(article.excerpt),
    publishedTime: article.publishedTime ?? metaDate,
    siteName: article.siteName ? cleanText(article.siteName) : null,
    declaredLanguage: article.lang || declaredLanguage,
  };
}

function metaContent(document: ReturnType<typeof parseHTML>['document'], names: string[]): string | null {
  for (const name of names) {
    const element = document.querySelector(`meta[property="${name}"], meta[name="${name}"]`);
    const content = element?.getAttribute('content');
    if (content) return content;
  }
  return null;
}

/** Keeps paragraph breaks, drops the indentation and blank runs HTML leaves behind. */
function normalizeParagraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => cleanText(paragraph))
    .filter(Boolean)
    .join('\n\n');
}
