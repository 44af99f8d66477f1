/**
 * The versions a Confluent-API schema registry holds for some subjects, read over its REST API
 * (GET /subjects/<subject>/versions). A subject the registry does not know has no versions.
 */
import { SkryaError, describeError } from './errors.ts';
import { REGISTRY_REQUEST_TIMEOUT_MS } from './serde.ts';

export interface SubjectVersions {
  subject: string;
  versions: number[];
}

export async function readSubjectVersions(registryUrl: string, subjects: readonly string[]): Promise<SubjectVersions[]> {
  const base = registryUrl.replace(/\/+$/, '');
  return Promise.all(subjects.map(async (subject) => {
    let response: Response;
    try {
      response = await fetch(`${base}/subjects/${encodeURIComponent(subject)}/versions`, { headers: { accept: 'application/vnd.schemaregistry.v1+json' }, signal: AbortSignal.timeout(REGISTRY_REQUEST_TIMEOUT_MS) });
    } catch (error) {
      throw new SkryaError('REGISTRY_UNAVAILABLE', `reading ${subject} from the registry failed: ${describeError(error)}`, { cause: error });
    }
    if (response.status === 404) return { subject, versions: [] };
    if (!response.ok) throw new SkryaError('REGISTRY_UNAVAILABLE', `reading ${subject} from the registry: HTTP ${response.status}`);
    const body: unknown = await response.json();
    if (!Array.isArray(body) || !body.every((version) => Number.isInteger(version))) throw new SkryaError('REGISTRY_UNAVAILABLE', `the registry answered ${subject}'s versions with something that is not a list of numbers`);
    return { subject, versions: (body as number[]).sort((a, b) => a - b) };
  }));
}
