/**
 * The prose of a man page's roff source, for the real-text corpus: requests and macros become line
 * breaks, the words of font macros (.B, .I, .BR, …) and section headings are kept, escapes become
 * the characters they stand for, comments and tables' formatting lines go. Not a formatter: no
 * filling, no indentation; enough to give the model a man page's sentences as a reader reads them.
 */
const FONT_MACROS = /^\.(B|I|R|SM|SB|BI|BR|IB|IR|RB|RI|UR|MT|Nm|Nd|Ar|Fl)\b\s*(.*)$/;
/** Headings: a paragraph of their own. */
const HEADING_MACROS = /^\.(SH|SS|Sh|Ss)\b\s*(.*)$/;
const NAMED_ESCAPES: Record<string, string> = { em: '—', en: '–', lq: '“', rq: '”', aq: "'", dq: '"', bu: '•', co: '©', rg: '®', mi: '-', hy: '-', ga: '`', ti: '~', ha: '^', 'or': '|', '<=': '≤', '>=': '≥', mu: '×', de: '°' };

/** Roff escapes in a line of text replaced by what they print. */
function unescape(line: string): string {
  return line
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\s[+-]?\d/g, '')
    .replace(/\\\((..)/g, (whole, name: string) => NAMED_ESCAPES[name] ?? '')
    .replace(/\\\[([^\]]*)\]/g, (whole, name: string) => NAMED_ESCAPES[name] ?? '')
    .replace(/\\\*(\(..|\[[^\]]*\]|.)/g, '')
    .replace(/\\[,/&|^:%]/g, '')
    .replace(/\\[-e]/g, (escape) => (escape === '\\-' ? '-' : '\\'))
    .replace(/\\ /g, ' ')
    .replace(/\\(.)/g, '$1');
}

/** Quoted macro arguments joined as words ("a b" c → a b c). */
function macroWords(argumentsText: string): string {
  return argumentsText.replace(/"([^"]*)"/g, '$1');
}

export function roffText(source: string): string {
  const lines: string[] = [];
  let inTable = false;
  for (const raw of source.split('\n')) {
    if (raw.startsWith('.\\"') || raw.startsWith("'\\\"") || raw.startsWith('\\"')) continue;
    if (raw.startsWith('.TS')) inTable = true;
    if (raw.startsWith('.TE')) {
      inTable = false;
      continue;
    }
    if (inTable && (/^[lrcns^|_\s.]+$/i.test(raw) || raw.startsWith('.T') || raw.includes(';') && /^[a-z]+\s*\(/.test(raw))) continue;
    if (raw.startsWith('.') || raw.startsWith("'")) {
      const heading = HEADING_MACROS.exec(raw);
      const font = FONT_MACROS.exec(raw);
      if (heading !== null) lines.push('', unescape(macroWords(heading[2] ?? '')), '');
      else lines.push(font === null ? '' : unescape(macroWords(font[2] ?? '')));
      continue;
    }
    lines.push(unescape(inTable ? raw.replace(/\t/g, ' ') : raw));
  }
  // Lines of one paragraph joined; empty lines (from requests) separate paragraphs.
  return lines.join('\n').replace(/[ \t]+/g, ' ').split(/\n\s*\n/).map((paragraph) => paragraph.split('\n').map((line) => line.trim()).filter(Boolean).join(' ')).filter(Boolean).join('\n');
}
