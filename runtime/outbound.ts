/** What a stage's outcomes become on the wire: encoded records with standard headers, and dead letters. */
import type { KafkaMessage, Producer } from 'kafkajs';
import type { ErrorCode } from './errors.ts';
import type { Outcome } from './handler.ts';
import { HEADERS, headersToRecord, standardHeaders } from './headers.ts';
import { isTenantId } from './ids.ts';
import type { Logger } from './logger.ts';
import type { Serde } from './serde.ts';
import { physicalTopic, type TopicNaming } from '../topics/topics.ts';

export interface ProducedRecord {
  topic: string;
  message: { key: string | Buffer | null; value: Buffer; headers: Record<string, string> };
}

export type OutcomeObserver = (service: string, outcome: Outcome['kind'], code?: string) => void;

export interface Outbound {
  toRecord(outcome: Extract<Outcome, { kind: 'emit' }>, inbound: Record<string, string>): Promise<ProducedRecord>;
  deadLetterRecord(message: KafkaMessage, partition: number, code: ErrorCode, errorMessage: string): Promise<ProducedRecord>;
  /** The records an input's outcomes produce; drops are only counted and logged. */
  recordsOf(outcomes: readonly Outcome[], message: KafkaMessage, partition: number, inbound: Record<string, string>): Promise<ProducedRecord[]>;
}

export function createOutbound(options: { service: string; serde: Serde; naming: TopicNaming; inputTopic: string; logger: Logger; onOutcome?: OutcomeObserver | undefined }): Outbound {
  const { service, serde, naming, inputTopic, logger } = options;
  const deadLetterTopic = physicalTopic(naming, 'dead-letters');

  const toRecord: Outbound['toRecord'] = async (outcome, inbound) => {
    const value = await serde.encode(outcome.topic, outcome.value as never);
    const headers = {
      ...standardHeaders({ stage: service, naming, serde, topic: outcome.topic, value: outcome.value, traceId: inbound[HEADERS.traceId] }),
      ...outcome.headers,
    };
    return { topic: physicalTopic(naming, outcome.topic), message: { key: outcome.key, value, headers } };
  };

  const deadLetterRecord: Outbound['deadLetterRecord'] = async (message, partition, code, errorMessage) => {
    const inbound = headersToRecord(message.headers);
    const tenantHeader = inbound[HEADERS.tenant];
    const value = await serde.encode('dead-letters', {
      source_topic: inputTopic,
      source_partition: partition,
      source_offset: message.offset,
      original_key: message.key ?? null,
      original_value: message.value ?? null,
      original_headers_json: JSON.stringify(inbound),
      stage: service,
      reason_code: code,
      error_message: errorMessage.slice(0, 4_000),
      failed_at: new Date().toISOString(),
      tenant: tenantHeader && isTenantId(tenantHeader) ? tenantHeader : null,
    });
    options.onOutcome?.(service, 'deadLetter', code);
    logger.warn({ partition, offset: message.offset, code }, 'dead-lettered');
    return {
      topic: deadLetterTopic,
      message: { key: message.key ?? null, value, headers: { [HEADERS.stage]: service, [HEADERS.reasonCode]: code, ...(tenantHeader ? { [HEADERS.tenant]: tenantHeader } : {}) } },
    };
  };

  const recordsOf: Outbound['recordsOf'] = async (outcomes, message, partition, inbound) => {
    const records: ProducedRecord[] = [];
    for (const outcome of outcomes) {
      if (outcome.kind === 'emit') records.push(await toRecord(outcome, inbound));
      else if (outcome.kind === 'deadLetter') records.push(await deadLetterRecord(message, partition, outcome.code, outcome.message));
      else {
        options.onOutcome?.(service, 'drop');
        logger.debug({ partition, offset: message.offset, reason: outcome.reason }, 'dropped');
      }
    }
    for (const record of records) if (record.topic !== deadLetterTopic) options.onOutcome?.(service, 'emit');
    return records;
  };

  return { toRecord, deadLetterRecord, recordsOf };
}

/** Sends records grouped by topic in one request, acknowledged by every in-sync replica. */
export async function sendRecords(producer: Producer, records: readonly ProducedRecord[]): Promise<void> {
  if (records.length === 0) return;
  const byTopic = new Map<string, ProducedRecord['message'][]>();
  for (const record of records) {
    const list = byTopic.get(record.topic) ?? [];
    list.push(record.message);
    byTopic.set(record.topic, list);
  }
  await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
}
