/**
 * The mock adapter's IO: replays responses recorded in each provider's documented format,
 * keyed by the skill's validated input (sha256 of its canonical JSON).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SkryaError, describeError } from '../../../runtime/errors.ts';
import { inputHash } from '../canonical-json.ts';
import type { CallContext, Transport, TransportResponse } from './transport.ts';

const recordingsFileSchema = z.object({
  recordings: z.array(z.object({
    input: z.record(z.string(), z.unknown()),
    /** Replayed for inputs nothing else matches (e.g. `skrya skills run --mock` with a new query). */
    default: z.boolean().default(false),
    status: z.number().int().min(100).max(599),
    content_type: z.string().min(1),
    url: z.string().nullable(),
    headers: z.record(z.string(), z.string()).default({}),
    body_file: z.string().regex(/^[\w.-]+$/, 'a file name inside the fixtures folder'),
  }).strict()).min(1),
}).strict();

export interface SkillRecordings {
  byInputKey: Map<string, TransportResponse>;
  fallback: TransportResponse | null;
}

/** Loads <fixturesDir>/recordings.json; `normalizeInput` applies the skill's defaults so keys match real calls. */
export async function loadRecordings(fixturesDir: URL, normalizeInput: (input: unknown) => unknown): Promise<SkillRecordings> {
  const dir = fileURLToPath(fixturesDir);
  const file = path.join(dir, 'recordings.json');
  let parsed: z.infer<typeof recordingsFileSchema>;
  try {
    parsed = recordingsFileSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    throw new SkryaError('CONFIG_INVALID', `${file}: ${describeError(error)}`, { cause: error });
  }
  const recordings: SkillRecordings = { byInputKey: new Map(), fallback: null };
  for (const recording of parsed.recordings) {
    const response: TransportResponse = {
      status: recording.status,
      headers: Object.fromEntries(Object.entries(recording.headers).map(([name, value]) => [name.toLowerCase(), value])),
      body: await readFile(path.join(dir, recording.body_file), 'utf8'),
      contentType: recording.content_type,
      url: recording.url,
    };
    recordings.byInputKey.set(inputHash(normalizeInput(recording.input)), response);
    if (recording.default) recordings.fallback = response;
  }
  return recordings;
}

export function createMockTransport(recordingsBySkill: ReadonlyMap<string, SkillRecordings>): Transport {
  return {
    async send(_request, call: CallContext): Promise<TransportResponse> {
      const recordings = recordingsBySkill.get(call.skill);
      const response = recordings?.byInputKey.get(call.inputKey) ?? recordings?.fallback;
      if (!response) throw new SkryaError('NOT_CONFIGURED', `${call.skill}: the mock adapter has no recorded response for this input`);
      return response;
    },
  };
}
