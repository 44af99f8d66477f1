/** A provider response and its results for the scorer's step tests, and the steps before the one under test. */
import { providerResultSchema, type ProviderResult } from '../../../schemas/ingest.ts';
import type { RequestContext } from '../../../schemas/messages.ts';
import { DEFAULT_SCORING_MODEL } from '../../../domain/scoring-model/default-model.ts';
import { rawResponseFixture, requestContextFixture } from '../../../test/fixtures/messages.ts';
import { candidatesOf, type ResponseMessage } from '../steps/normalize.ts';
import { createScoreStep, type Scored } from '../steps/score.ts';
import { createScreenStep, type Screened } from '../steps/screen.ts';
import { createValidateStep, type Validated } from '../steps/validate.ts';

export const PRODUCER = 'feed_reader';

export function responseMessage(options: { request?: Partial<RequestContext>; capability?: ResponseMessage['response']['capability'] } = {}): ResponseMessage {
  const raw = rawResponseFixture({ capability: options.capability ?? 'rss_feed' }) as ResponseMessage;
  return { ...raw, producer: { ...raw.producer, name: PRODUCER }, request: { ...requestContextFixture, ...options.request } };
}

export function providerResult(fields: Partial<ProviderResult> = {}): ProviderResult {
  return providerResultSchema.parse({
    url: 'https://www.theverge.com/2026/04/24/comet-agent-mode',
    title: 'Perplexity Comet browser gets an agent mode',
    snippet: 'The AI browser product update adds an agent that books and buys on its own.',
    published_date: '2026-04-24T09:00:00Z',
    source: 'The Verge',
    ...fields,
  });
}

export function validated(fields: Partial<ProviderResult> = {}, message = responseMessage()): Validated {
  return createValidateStep()(message, candidatesOf(message, [providerResult(fields)])[0]!);
}

export function screened(fields: Partial<ProviderResult> = {}, message = responseMessage()): Screened {
  return createScreenStep(DEFAULT_SCORING_MODEL.screening)(validated(fields, message));
}

export function scored(fields: Partial<ProviderResult> = {}, message = responseMessage()): Scored {
  return createScoreStep(DEFAULT_SCORING_MODEL.ranking)(message)(screened(fields, message));
}
