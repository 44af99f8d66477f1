/**
 * How `skrya dlq` shows letters: one line each for `list`, everything for `show` (the original
 * value as a hex dump and a UTF-8 preview, the original headers), and a JSON form without bytes.
 */
import type { StoredDeadLetter } from '../../runtime/dead-letters.ts';
import type { RedriveEntry } from './redrive-ledger.ts';
import { letterAddress } from './select-letters.ts';

const MESSAGE_WIDTH = 100;

function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

export function letterLine(stored: StoredDeadLetter, redriven: boolean): string {
  const { letter } = stored;
  return [
    letterAddress(stored),
    letter.failed_at,
    letter.stage,
    letter.reason_code,
    `${letter.source_topic}[${letter.source_partition}]@${letter.source_offset}`,
    letter.tenant ?? '-',
    `${redriven ? '(re-driven) ' : ''}${truncate(letter.error_message, MESSAGE_WIDTH)}`,
  ].join('  ');
}

export function letterJson(stored: StoredDeadLetter, redrive: RedriveEntry | undefined) {
  const { letter } = stored;
  return {
    letter: letterAddress(stored),
    failed_at: letter.failed_at,
    stage: letter.stage,
    reason_code: letter.reason_code,
    source: { topic: letter.source_topic, partition: letter.source_partition, offset: letter.source_offset },
    tenant: letter.tenant,
    error_message: letter.error_message,
    key: letter.original_key?.toString('utf8') ?? null,
    value_bytes: letter.original_value?.length ?? null,
    redriven: redrive ? { to: redrive.redriven_to, at: redrive.redriven_at } : null,
  };
}

/** 16 bytes a row: offset, hex, and the printable ASCII beside it. */
export function hexDump(bytes: Buffer, maxBytes = 4_096): string {
  const shown = bytes.subarray(0, maxBytes);
  const rows: string[] = [];
  for (let start = 0; start < shown.length; start += 16) {
    const row = shown.subarray(start, start + 16);
    const hex = [...row].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
    rows.push(`${start.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  |${ascii}|`);
  }
  if (bytes.length > maxBytes) rows.push(`… ${bytes.length - maxBytes} more bytes`);
  return rows.join('\n');
}

/** The value read as UTF-8, control characters and invalid sequences shown as U+FFFD. */
export function utf8Preview(bytes: Buffer, maxChars = 2_000): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const text = bytes.toString('utf8').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\ufffd');
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)`;
}

export function letterDetail(stored: StoredDeadLetter, headers: Record<string, string> | null, redrive: RedriveEntry | undefined): string {
  const { letter } = stored;
  const value = letter.original_value;
  const lines = [
    `letter       ${letterAddress(stored)} (stored ${new Date(Number(stored.timestamp)).toISOString()})`,
    `failed_at    ${letter.failed_at}`,
    `stage        ${letter.stage}`,
    `reason_code  ${letter.reason_code}`,
    `source       ${letter.source_topic} partition ${letter.source_partition} offset ${letter.source_offset}`,
    `tenant       ${letter.tenant ?? '-'}`,
    `re-driven    ${redrive ? `to ${redrive.redriven_to.topic}[${redrive.redriven_to.partition}]@${redrive.redriven_to.offset} at ${redrive.redriven_at}` : 'no'}`,
    `error        ${letter.error_message}`,
    '',
    `key          ${letter.original_key === null ? '(null)' : JSON.stringify(letter.original_key.toString('utf8'))}`,
    'headers',
    ...(headers === null ? [`  (unreadable) ${letter.original_headers_json}`] : Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, text]) => `  ${name}: ${text}`)),
    '',
    `value        ${value === null ? '(null)' : `${value.length} bytes`}`,
  ];
  if (value !== null) lines.push(hexDump(value), '', 'value as UTF-8', utf8Preview(value));
  return `${lines.join('\n')}\n`;
}
