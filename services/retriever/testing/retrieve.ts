import type { Handler, Later, Outcome } from '../../../runtime/handler.ts';
import type { RawResult, RetrievalRequest } from '../../../schemas/messages.ts';

/** Feeds requests to a retriever as the runner would, and collects the messages its runs complete with. */
export async function retrieve(handler: Handler<'retrieval-requests', Later>, requests: RetrievalRequest[]): Promise<RawResult[]> {
  const context = { heartbeat: async () => {}, signal: new AbortController().signal };
  const completions: Array<Promise<Outcome[] | null>> = [];
  for (const [index, value] of requests.entries()) {
    const outcomes = await handler.handle({ topic: 'retrieval-requests', partition: 0, offset: String(index), key: null, value, headers: {}, timestamp: '0' }, context);
    completions.push(...outcomes.map((outcome) => outcome.completion));
  }
  const emitted = (await Promise.all(completions)).flatMap((outcomes) => outcomes ?? []);
  return emitted.map((outcome) => (outcome.kind === 'emit' ? (outcome.value as RawResult) : null)).filter((value): value is RawResult => value !== null);
}
