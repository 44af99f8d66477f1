import type { Command } from 'commander';
import { rankWantsNodeFlags } from './rank-node-flags.ts';

/**
 * Every CLI command: its name, the line `skrya --help` shows for it, and how to load it. A command's
 * module (and everything it imports: the pipeline, the classifiers, the language data) is loaded
 * only when that command runs, so `skrya --help` and light commands start at once.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<(program: Command) => void>;
  /**
   * Node options the command's process must start with (V8 heap sizes cannot change once node
   * runs): the CLI replaces itself (execve) with a node started with them, for this command alone
   * (cli/node-flags.ts).
   */
  nodeFlags?: readonly string[];
  /**
   * Whether this invocation's arguments ask for work that needs nodeFlags (absent: always). Flags
   * that only matter for a large input are not worth a second node start for a small one.
   */
  nodeFlagsWanted?: (args: readonly string[]) => boolean;
  /**
   * GLIBC_TUNABLES entries for that started-again node (glibc reads them only when a process
   * starts): used only with nodeFlags.
   */
  glibcTunables?: readonly string[];
  /**
   * The process ends as soon as the command's action has returned and stdout and stderr have
   * taken what it wrote, without node freeing its heap first: for a command whose work is over
   * when its action returns and whose heap is large. Node frees its heap on the way out: after a
   * 100k `skrya rank` (a heap of about 300 MB) it took about 60 ms from the last line printed to
   * the process's end, 1,100 munmap calls, against about 25 ms ending at once (strace, two runs each).
   */
  exitsWhenDone?: boolean;
}

/**
 * `skrya rank` keeps 100k results' scores and dedupe keys alive until it ranks them, so each young
 * generation collection finds most of what it scans still alive, and V8 grows the young
 * generation to its largest (two 64 MB semi-spaces, a quarter of rank's peak memory). The flag
 * sizes every thread's young generation (the reading threads' too). On the bench's 100k file,
 * six alternating runs each: 4 MB semi-spaces peaked at 340–370 MB, 8 MB ones at 402–426 MB, in
 * the same wall time (median 3.98 s both; another six pairs gave 4 MB 4 % more); docs/performance-history.md.
 */
const RANK_SEMI_SPACE_FLAG = '--max-semi-space-size=4';

/**
 * glibc's malloc asked to back its large blocks with transparent huge pages (glibc 2.35 or later,
 * where the kernel allows them on request): rank's column arrays and batch buffers (ArrayBuffers,
 * which node takes from malloc) are first touched 2 MB at a time instead of 4 KB. On a VM where a
 * page's first touch cost 12 µs, eight alternating pairs on the bench's 100k file against the code
 * before: 63k page faults against 86k, a median 3.47 s wall against 3.81 s, the same output, and
 * 18 MB more peak RSS. V8's own heap is not malloc's and is unchanged.
 */
const HUGE_PAGE_MALLOC = 'glibc.malloc.hugetlb=1';

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'stack', summary: 'the local Kafka broker and schema registry, started from Maven Central artifacts without Docker', load: async () => (await import('./stack.ts')).registerStackCommand },
  { name: 'doctor', summary: 'check that this configuration can run the pipeline on its cluster (connection, TLS, credentials, brokers, topics, groups, registry) and say what to fix', load: async () => (await import('./doctor.ts')).registerDoctorCommand },
  { name: 'topics', summary: 'the Kafka topics of the topic table (topics/topics.ts)', load: async () => (await import('./topics.ts')).registerTopicsCommand },
  { name: 'topic', summary: 'topics: the folders under <data-root>/<tenant>/topics/ that hold sources.json', load: async () => (await import('./topic.ts')).registerTopicCommand },
  { name: 'sources', summary: 'sources.json files', load: async () => (await import('./sources.ts')).registerSourcesCommand },
  { name: 'request', summary: 'emit one skrya.retrieval-request.v1 for a topic now (the window runs from the end of its last run, or recency_hours back)', load: async () => (await import('./request.ts')).registerRequestCommand },
  { name: 'run', summary: 'run pipeline services until SIGTERM/SIGINT: monitor, retriever, scorer, collector, sink, sink-raw, or all', load: async () => (await import('./run.ts')).registerRunCommand },
  { name: 'demo', summary: 'run the whole pipeline once on the bundled ai-browser topic: local stack, all services, one run, a ranked summary', load: async () => (await import('./demo.ts')).registerDemoCommand },
  { name: 'ingest', summary: "publish a third-party tool's output (a skrya.ingest.v1 document, JSON results or text; '-' reads stdin) as one run of a topic; the scorer normalizes and screens it", load: async () => (await import('./ingest.ts')).registerIngestCommand },
  { name: 'classify', summary: 'show the intent of a search query (spec 001), the signals behind it, its mode and freshness, and the sub-queries it expands to', load: async () => (await import('./classify.ts')).registerClassifyCommand },
  { name: 'route', summary: 'plan where to search (spec 004 source router): router input JSON in, routing plan JSON out; never searches', load: async () => (await import('./route.ts')).registerRouteCommand },
  { name: 'skills', summary: 'provider skills (spec 002): list, inspect, validate, run and smoke-test them', load: async () => (await import('./skills.ts')).registerSkillsCommand },
  { name: 'rank', summary: 'score and dedupe provider results offline, exactly as the pipeline does, and print them ranked as JSONL', load: async () => (await import('./rank.ts')).registerRankCommand, nodeFlags: [RANK_SEMI_SPACE_FLAG], nodeFlagsWanted: rankWantsNodeFlags, glibcTunables: [HUGE_PAGE_MALLOC], exitsWhenDone: true },
  { name: 'replay', summary: 're-run scorer → collector → sink with the current code over a topic\'s raw-results for a time range, into runs/<topic>/replays/<id>/ with a diff against the original runs', load: async () => (await import('./replay.ts')).registerReplayCommand },
  { name: 'dlq', summary: 'dead letters: list them, show one, re-drive them to their source topic after a fix', load: async () => (await import('./dlq.ts')).registerDlqCommand },
  { name: 'ui', summary: 'the operator view in a browser, read-only: fleet, run reports, pipeline health, replays (127.0.0.1 by default)', load: async () => (await import('./ui.ts')).registerUiCommand },
  { name: 'screen', summary: 'screen items for prompt injection as the scorer does: JSONL items in, one verdict {id, verdict, score, evidence} a line out', load: async () => (await import('./screen.ts')).registerScreenCommand },
];

/** The command an argument list names (`skrya help <command>` too), if any: the first argument that is not an option. */
export function requestedCommand(args: readonly string[]): CommandEntry | undefined {
  const requested = args[0] === 'help' ? args[1] : args.find((arg) => !arg.startsWith('-'));
  return COMMANDS.find((command) => command.name === requested);
}
