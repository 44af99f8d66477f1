import fs from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { sourcesFile } from '../../runtime/data-paths.ts';
import { SkryaError, describeError, isSkryaError } from '../../runtime/errors.ts';
import { parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import { CAPABILITIES, type Capability } from '../../schemas/ingest.ts';
import { INGEST_VERSION, type RawResult } from '../../schemas/messages.ts';
import { buildRetrievalRequest, loadSourcesFile } from '../../services/monitor/index.ts';
import { requestContext } from '../../services/retriever/index.ts';
import { normalizeThirdPartyOutput } from '../../domain/skills/third-party-output.ts';

/** Refuses a skrya.ingest.v1 document meant for another interface version or topic. */
export function checkIngestDocument(text: string, topicId: string): { capabilities: Capability[] } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('interface_version' in parsed)) return null;
  const document = parsed as { interface_version: unknown; topic_id?: unknown; producer?: { capabilities?: unknown } };
  if (document.interface_version !== INGEST_VERSION) {
    throw new SkryaError('INVALID_INPUT', `the document's interface_version is ${JSON.stringify(document.interface_version)}; skrya ingest accepts ${INGEST_VERSION} (or a tool's raw output)`);
  }
  if (document.topic_id !== topicId) {
    throw new SkryaError('INVALID_INPUT', `the document is for topic ${JSON.stringify(document.topic_id)}, not ${JSON.stringify(topicId)}: pass --topic ${String(document.topic_id)} or fix topic_id`);
  }
  const declared = Array.isArray(document.producer?.capabilities) ? document.producer.capabilities : [];
  return { capabilities: declared.filter((capability): capability is Capability => (CAPABILITIES as readonly unknown[]).includes(capability)) };
}

/**
 * True when the output is a well-formed empty answer: a JSON list of results with nothing in it
 * (bare, or the first list of a JSON object). The tool answered and found nothing; that is a good,
 * empty run. Anything else without results (an error message, a file that is not a tool's output)
 * is no answer at all.
 */
export function isEmptyResultList(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (Array.isArray(parsed)) return parsed.length === 0;
  if (typeof parsed !== 'object' || parsed === null) return false;
  const list = Object.values(parsed).find(Array.isArray);
  return list !== undefined && list.length === 0;
}

/**
 * What ingesting an output with these results does: publish it (with the status the run records for
 * the tool), or refuse with the reason. No usable result is refused unless `allowEmpty`; then a
 * well-formed empty list is a good, empty run and anything else a run whose only source failed.
 */
export function ingestDecision(input: { results: number; emptyList: boolean; allowEmpty: boolean; source: string; bytes: number }):
  | { publish: true; status: 'ok' | 'error'; code: 'EMPTY_RESULTS' | null; message: string | null }
  | { publish: false; reason: string } {
  if (input.results > 0) return { publish: true, status: 'ok', code: null, message: null };
  const what = input.emptyList ? 'an empty list of results' : `no result (${input.bytes} bytes with neither JSON results nor links)`;
  if (!input.allowEmpty) {
    return { publish: false, reason: `${input.source} holds ${what}: nothing was published and the topic's latest-ingest.json is unchanged. Check the tool's output, or pass --allow-empty to record it as a run (an empty list becomes an empty run; anything else a failed attempt)` };
  }
  return input.emptyList
    ? { publish: true, status: 'ok', code: null, message: null }
    : { publish: true, status: 'error', code: 'EMPTY_RESULTS', message: `the output holds ${what}` };
}

function parseCapabilities(list: string | undefined): Capability[] | null {
  if (list === undefined) return null;
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(CAPABILITIES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) throw new SkryaError('INVALID_INPUT', `--capabilities ${list}: use a comma-separated list of ${CAPABILITIES.join(', ')}`);
  return names as Capability[];
}

export function registerIngestCommand(program: Command): void {
  program
    .command('ingest <file>')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--topic <topic-id>', 'topic id')
    .requiredOption('--producer <name>', 'the tool that produced the output (recorded in run artifacts only)')
    .option('--capabilities <list>', `capabilities the tool served, comma-separated (${CAPABILITIES.join(', ')})`)
    .option('--allow-empty', 'publish even when the output holds no usable result: an empty JSON list becomes an empty run, anything else a failed attempt (recorded, latest-ingest.json kept)')
    .action(async (file: string, options: { tenant: string; topic: string; producer: string; capabilities?: string; allowEmpty?: boolean }) => {
      const tenant = parseTenantId(options.tenant);
      const topicId = parseTopicId(options.topic);
      if (!/^[a-z0-9][a-z0-9._-]{0,63}$/i.test(options.producer)) throw new SkryaError('INVALID_INPUT', `--producer ${JSON.stringify(options.producer)}: use letters, digits, '.', '_' or '-' (at most 64)`);
      let text: string;
      try {
        text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (error) {
        throw new SkryaError('INVALID_INPUT', `cannot read ${file === '-' ? 'stdin' : file}: ${describeError(error)}`, { cause: error });
      }
      if (text.trim() === '') throw new SkryaError('INVALID_INPUT', `${file === '-' ? 'stdin' : file} is empty: nothing to ingest`);
      const document = checkIngestDocument(text, topicId);
      const capabilities = parseCapabilities(options.capabilities) ?? (document?.capabilities.length ? document.capabilities : ['web_search']);
      // Fails early, with the reason, on output the scorer could not normalize.
      let results: ReturnType<typeof normalizeThirdPartyOutput>;
      try {
        results = normalizeThirdPartyOutput({ skill: options.producer, body: text, contentType: document ? 'application/json' : 'text/plain', httpStatus: 0, url: null, fetchedAt: new Date().toISOString() });
      } catch (error) {
        // The operator's file, not a provider, is wrong: bad input (exit 2), like every check above.
        if (isSkryaError(error) && !error.retriable) throw new SkryaError('INVALID_INPUT', error.message, { cause: error });
        throw error;
      }

      const source = file === '-' ? 'stdin' : file;
      const decision = ingestDecision({ results: results.length, emptyList: isEmptyResultList(text), allowEmpty: options.allowEmpty === true, source, bytes: Buffer.byteLength(text) });
      // Exit 1: the input is readable, but there is nothing to publish.
      if (!decision.publish) throw new SkryaError('EMPTY_RESULTS', decision.reason);

      const config = loadConfig();
      const topic = loadSourcesFile(sourcesFile(config.SKRYA_DATA_ROOT, tenant, topicId));
      const now = new Date();
      const request = buildRetrievalRequest({ tenant, topicId, topic, now, trigger: 'CLI', since: new Date(now.getTime() - topic.recencyHours * 3_600_000).toISOString(), until: now.toISOString() });
      const producer: RawResult['producer'] = { kind: 'runtime-skill', name: options.producer, persistent: false, capabilities };
      const scope = { tenant, topic_id: topicId, run_id: request.run_id, request: requestContext(request), producer };
      const fetchedAt = now.toISOString();

      const pipeline = await connectPipeline({ config, clientId: 'skrya-ingest' });
      const publisher = await pipeline.port.publisher('ingest');
      const key = topicKey({ tenant, topicId });
      try {
        await publisher.publish('raw-results', key, {
          ...scope,
          kind: 'RESPONSE',
          response: { sequence: 0, capability: capabilities[0]!, sub_query: null, counter_evidence: false, fetched_at: fetchedAt, http_status: 0, content_type: document ? 'application/json' : 'text/plain', url: null, payload: text },
          run_end: null,
        });
        await publisher.publish('raw-results', key, {
          ...scope,
          kind: 'RUN_END',
          response: null,
          run_end: {
            response_count: 1,
            started_at: fetchedAt,
            finished_at: fetchedAt,
            provider_status: capabilities.map((capability) => ({ provider: options.producer, capability, status: decision.status, code: decision.code, message: decision.message, calls: 1, results: results.length })),
            degradation_log_json: '[]',
            plan_json: null,
          },
        });
      } finally {
        await publisher.close();
      }
      const note = decision.status === 'error' ? ' (no usable result: it is recorded as a failed attempt and latest-ingest.json keeps the last good run)' : results.length === 0 ? ' (an empty run)' : '';
      process.stdout.write(`${request.run_id}: ${results.length} result(s) from ${options.producer} published for ${tenant}/${topicId}${note}\n`);
    });
}
