/**
 * The data tree as the editing surface: every valid `<tenant>/topics/<topic>/sources.json` is
 * published to topic-configs, an edited file again once its content changes, and a deleted topic
 * folder as a tombstone. A broken file is reported with its line and not published, so the topic
 * keeps its last valid config. Used by `skrya run monitor` on a single machine and by
 * `skrya topic apply`; a fleet's monitors only read topic-configs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { listTopics, sourcesFile } from '../../runtime/data-paths.ts';
import { describeError } from '../../runtime/errors.ts';
import { isTenantId, isTopicId, parseTopicKey, topicKey, type TenantId, type TopicId } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { TopicConfig } from '../../schemas/messages.ts';
import { lastRunUntil } from './monitor.ts';
import { loadSourcesFile } from './sources-file.ts';
import { toTopicConfig } from './topic-config.ts';

export type ConfigChange = { key: string; value: TopicConfig | null };

/** A topic's config from its sources.json, or the file's problem (file:line:column lines). */
export function readTopicConfig(dataRoot: string, tenant: TenantId, topicId: TopicId, now: Date): { config: TopicConfig } | { problem: string } {
  try {
    const topic = loadSourcesFile(sourcesFile(dataRoot, tenant, topicId));
    return { config: toTopicConfig({ tenant, topicId, topic, now, lastRunUntil: lastRunUntil(dataRoot, tenant, topicId) }) };
  } catch (error) {
    return { problem: describeError(error) };
  }
}

export interface DataTreeConfigsOptions {
  dataRoot: string;
  logger: Logger;
  /** Writes the changes to topic-configs, acknowledged before it resolves. */
  write: (changes: readonly ConfigChange[]) => Promise<void>;
  /** What topic-configs already holds, by key (its content hashes), so unchanged topics are not written again. */
  published?: Map<string, string>;
  clock?: () => Date;
}

export function createDataTreeConfigs(options: DataTreeConfigsOptions) {
  const dataRoot = path.resolve(options.dataRoot);
  const published = new Map(options.published ?? []);
  const clock = options.clock ?? (() => new Date());

  /** The change one topic's folder makes now, or null when there is none (unchanged or broken). */
  function changeOf(tenant: TenantId, topicId: TopicId, now: Date): ConfigChange | null {
    const key = topicKey({ tenant, topicId });
    if (!fs.existsSync(path.dirname(sourcesFile(dataRoot, tenant, topicId)))) return published.has(key) ? { key, value: null } : null;
    const read = readTopicConfig(dataRoot, tenant, topicId, now);
    if ('problem' in read) {
      options.logger.error({ tenant, topicId, problem: read.problem }, 'topic config not published; the last valid one stays in force');
      return null;
    }
    return published.get(key) === read.config.content_sha256 ? null : { key, value: read.config };
  }

  async function write(changes: ConfigChange[]): Promise<ConfigChange[]> {
    if (changes.length === 0) return changes;
    await options.write(changes);
    for (const { key, value } of changes) {
      if (value === null) published.delete(key);
      else published.set(key, value.content_sha256);
    }
    options.logger.info({ published: changes.filter((change) => change.value !== null).length, deleted: changes.filter((change) => change.value === null).length }, 'topic configs published');
    return changes;
  }

  return {
    /**
     * Publishes every topic of the tree that changed, and tombstones for published topics of the
     * tree's tenants whose folder is gone. Topics of tenants the tree does not hold are left alone
     * (they were applied from elsewhere).
     */
    async syncAll(): Promise<ConfigChange[]> {
      const now = clock();
      const present = listTopics(dataRoot);
      const changes = present.map(({ tenant, topicId }) => changeOf(tenant, topicId, now)).filter((change): change is ConfigChange => change !== null);
      const presentKeys = new Set(present.map((ref) => topicKey(ref)));
      const tenants = new Set(present.map(({ tenant }) => tenant));
      for (const key of published.keys()) {
        const { tenant } = parseTopicKey(key);
        if (!presentKeys.has(key) && (tenants.has(tenant) || fs.existsSync(path.join(dataRoot, tenant)))) changes.push({ key, value: null });
      }
      return write(changes);
    },

    /** Publishes the changes of the named topic folders (paths relative to the data root, as a file watcher reports them). */
    async syncPaths(relativePaths: Iterable<string>): Promise<ConfigChange[]> {
      const now = clock();
      const topics = new Map<string, { tenant: TenantId; topicId: TopicId }>();
      for (const relative of relativePaths) {
        const [tenant, folder, topicId] = relative.split(path.sep);
        if (!tenant || !isTenantId(tenant)) continue;
        if (folder === 'topics' && topicId && isTopicId(topicId)) topics.set(`${tenant}/${topicId}`, { tenant, topicId });
        else if (folder === undefined || (folder === 'topics' && topicId === undefined)) {
          // A tenant or its topics folder changed as a whole (created, moved, deleted): look at all its topics.
          for (const key of published.keys()) if (key.startsWith(`${tenant}/`)) topics.set(key, parseTopicKey(key));
          for (const ref of listTopics(dataRoot).filter((ref) => ref.tenant === tenant)) topics.set(topicKey(ref), ref);
        }
      }
      const changes = [...topics.values()].map(({ tenant, topicId }) => changeOf(tenant, topicId, now)).filter((change): change is ConfigChange => change !== null);
      return write(changes);
    },

    /**
     * Watches the tree (recursively) and publishes what an edit, a new topic or a deleted one
     * changes, a short while after the last event of a burst (an editor saves in several steps).
     */
    watch(settleMs = 200): { close(): Promise<void> } {
      const touched = new Set<string>();
      let timer: NodeJS.Timeout | null = null;
      let syncing: Promise<unknown> = Promise.resolve();
      const flush = () => {
        timer = null;
        const paths = [...touched];
        touched.clear();
        syncing = syncing.then(() => this.syncPaths(paths)).catch((error: unknown) => {
          // Not lost: the paths are looked at again with the next event, and a restart syncs everything.
          options.logger.warn({ err: error }, 'publishing edited topic configs failed; trying again');
          for (const relative of paths) touched.add(relative);
          timer ??= setTimeout(flush, 1_000);
        });
      };
      fs.mkdirSync(dataRoot, { recursive: true });
      const watcher = fs.watch(dataRoot, { recursive: true }, (_event, filename) => {
        if (filename === null) return;
        touched.add(filename.toString());
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, settleMs);
      });
      return {
        async close() {
          watcher.close();
          if (timer) {
            clearTimeout(timer);
            flush();
          }
          await syncing;
        },
      };
    },

    /** Content hashes of what this publisher knows topic-configs holds. */
    published(): Map<string, string> {
      return new Map(published);
    },
  };
}
