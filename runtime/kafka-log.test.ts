import './kafkajs-replacements.ts';
import { logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkajsLogLevel } from './kafka.ts';

describe('kafkajsLogLevel', () => {
  it.each([
    ['a heartbeat that finds the group rebalancing', 'Response Heartbeat(key: 12, version: 3)', 'The group is rebalancing, so a rejoin is needed'],
    ['a coordinator not available yet', 'Response GroupCoordinator(key: 10, version: 2)', 'The group coordinator is not available'],
    ['a transaction the fenced owner left still being aborted', 'Response InitProducerId(key: 22, version: 1)', 'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing'],
    ['a send retried because the last transaction still completes', 'Failed to send messages: The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing', undefined],
  ])('logs a response kafkajs recovers from itself at info: %s', (_name, message, error) => {
    expect(kafkajsLogLevel(logLevel.ERROR, message, error)).toBe('info');
  });

  it.each([
    ['a member the coordinator no longer knows (its session expired)', 'The coordinator is not aware of this member, re-joining the group', 'The coordinator is not aware of this member'],
    ['a response refused for lack of rights', 'Response InitProducerId(key: 22, version: 1)', 'Transactional Id authorization failed'],
    ['a response without an error text', 'Response Produce(key: 0, version: 7)', undefined],
    ['a connection failure', 'Connection error: connect ECONNREFUSED 127.0.0.1:19092', 'connect ECONNREFUSED'],
    ['a send that lost its connection', 'Failed to send messages: Connection error: read ECONNRESET', undefined],
  ])('keeps every other kafkajs error an error: %s', (_name, message, error) => {
    expect(kafkajsLogLevel(logLevel.ERROR, message, error)).toBe('error');
  });

  it('keeps the level of kafkajs warnings', () => {
    expect(kafkajsLogLevel(logLevel.WARN, 'The group is rebalancing, re-joining', 'The group is rebalancing, so a rejoin is needed')).toBe('warn');
  });
});
