/** Rule 2: the source combination spec 004 recommends for each task type, in search order. */
import type { SourceType, TaskType } from './route-input.ts';

export const TASK_COMBINATIONS: Record<TaskType, readonly SourceType[]> = {
  breaking_news: ['web', 'counter'],
  deep_research: ['vector', 'web', 'graph', 'counter'],
  entity_analysis: ['graph', 'web', 'vector'],
  internal_knowledge: ['vector', 'local_file'],
  tech_evaluation: ['web', 'vector', 'counter'],
};

/** Sources that hold already-known material (rules 1 and 3 treat them as one "vector/local_file" group). */
export const LOCAL_SOURCES: readonly SourceType[] = ['vector', 'local_file'];

export function isLocalSource(source: SourceType): boolean {
  return LOCAL_SOURCES.includes(source);
}
