import { describe, expect, it } from 'vitest';
import { roffText } from './roff-text.ts';

describe('roffText: the prose of a man page', () => {
  it('keeps headings and the words of font macros, drops comments and requests, joins a paragraph\'s lines', () => {
    const source = [
      '.\\" Copyright line nobody reads',
      '.TH LS 1 2022 "GNU coreutils"',
      '.SH NAME',
      'ls \\- list directory contents',
      '.SH DESCRIPTION',
      '.PP',
      'List information about the',
      '.I FILEs',
      '(the current directory by default).',
      '.TP',
      '\\fB\\-a\\fR, \\fB\\-\\-all\\fP',
      'do not ignore entries starting with \\(lq.\\(rq',
    ].join('\n');
    expect(roffText(source)).toBe([
      'NAME',
      'ls - list directory contents',
      'DESCRIPTION',
      'List information about the FILEs (the current directory by default).',
      '-a, --all do not ignore entries starting with “.”',
    ].join('\n'));
  });

  it('reads translated pages the same way', () => {
    expect(roffText('.SH 名称\nls \\- 列出目录内容\n.PP\n不要忽略以点号起始的条目')).toBe('名称\nls - 列出目录内容\n不要忽略以点号起始的条目');
  });
});
