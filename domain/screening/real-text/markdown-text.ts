/**
 * Text of a markdown (or MDX) document as a reader of its rendered page sees it: rendered with
 * markdown-it, read with htmlToText like the Debian HTML manuals, so code blocks (messages with a
 * `system` role, chat templates) stay as text, one line per source line. MDX's import/export lines
 * and JSX component tags are markup, not prose; front matter gives the title.
 */
import MarkdownIt from 'markdown-it';
import { htmlToText } from '../../text/html.ts';

// html on: MDX components and inline HTML become tags htmlToText drops, not literal text.
const markdown = new MarkdownIt({ html: true });

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n/;
const MDX_MODULE_LINE = /^(import|export) .*$/gm;

export function markdownText(source: string): { title: string; lines: string[] } {
  const frontMatter = FRONT_MATTER.exec(source);
  const body = (frontMatter === null ? source : source.slice(frontMatter[0].length)).replace(MDX_MODULE_LINE, '');
  const fromFrontMatter = /^title:\s*['"]?(.*?)['"]?\s*$/m.exec(frontMatter?.[1] ?? '')?.[1];
  const heading = /^#{1,2}\s+(.+)$/m.exec(body)?.[1];
  const lines = htmlToText(markdown.render(body)).text.split('\n');
  return { title: (fromFrontMatter ?? heading ?? lines[0] ?? '').trim(), lines };
}
