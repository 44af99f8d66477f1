/**
 * Turns hits into one risk score and a verdict.
 *
 * Hits close to each other (same field, less than CLUSTER_GAP characters apart) form a cluster:
 * one injected paragraph. Inside a cluster each technique counts once (its strongest hit) and
 * independent techniques combine as a noisy-OR, so "addressed to an AI" + "ignore previous
 * instructions" + "do not tell the user" scores far higher than any one of them. Carrier-only
 * clusters (a chat template in a tutorial, a hidden HTML comment with no instruction in it) are
 * scaled down: carriers matter when they carry something. The item's score is its worst cluster,
 * raised a little by the others. A cluster that only repeats what another field's cluster holds
 * (the same rules on the same text, as a snippet repeats the start of a page and a feed entry's
 * HTML its text) and scores no higher is one piece of evidence, not another: it is left out, so an
 * item scores the same whether its provider sent the text once or also as a snippet and markup.
 *
 * Verdict thresholds (score is 0..1 risk):
 *   < 0.35  accept      nothing, or weak signals that benign pages also show
 *   < 0.60  downweight  one weak-to-medium technique on its own
 *   < 0.90  quarantine  a strong technique, or two that co-occur; content goes on inside
 *                       quarantine markers with every offending span neutralized
 *   ≥ 0.90  drop        several independent techniques co-occur (e.g. addressed to an AI +
 *                       override + concealment or exfiltration)
 */
import type { RuleRole, Technique } from './rules.ts';

export type Verdict = 'accept' | 'downweight' | 'quarantine' | 'drop';

export interface Hit {
  rule: string;
  technique: Technique;
  role: RuleRole;
  field: string;
  span: { start: number; end: number };
  text: string;
  weight: number;
}

export interface Thresholds {
  downweight: number;
  quarantine: number;
  drop: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { downweight: 0.35, quarantine: 0.6, drop: 0.9 };

const CLUSTER_GAP = 400;
/**
 * Techniques that are ordinary when a page talks to a person ("tell the customer", "do not share
 * your code", "run rm -rf only if…"): they weigh this much less unless something in the same
 * cluster shows a machine is being addressed or the text is being hidden.
 */
const PERSON_DIRECTED_FACTOR = 0.6;
const PERSON_DIRECTED: ReadonlySet<Technique> = new Set(['output_directive', 'concealment', 'sensitive_data', 'false_authority', 'agent_action', 'task_denial', 'fetch_chain']);
const CARRIER_ONLY_FACTOR = 0.5;
/** A carrier this strong (an AI addressed, hidden or smuggled text, a spoofed role) makes a cluster machine-directed. */
const ADDRESSED_CARRIER = 0.3;
const OTHER_CLUSTERS_FACTOR = 0.5;

export function scoreHits(hits: readonly Hit[]): number {
  if (hits.length === 0) return 0;
  const clusters = clustersOf(hits);
  const clusterScores = clusters.filter((cluster, index) => !repeatsAnother(clusters, index)).map((cluster) => cluster.score);
  clusterScores.sort((a, b) => b - a);
  const [worst = 0, ...others] = clusterScores;
  return round(1 - (1 - worst) * (1 - OTHER_CLUSTERS_FACTOR * noisyOr(others)));
}

interface Cluster {
  field: string;
  score: number;
  /** Each hit's rule and text: what another field's cluster must hold for this one to repeat it. */
  evidence: Set<string>;
}

/** Hits of one field less than CLUSTER_GAP apart, cluster by cluster, each scored. */
function clustersOf(hits: readonly Hit[]): Cluster[] {
  const ordered = [...hits].sort((a, b) => (a.field === b.field ? a.span.start - b.span.start : a.field < b.field ? -1 : 1));
  const clusters: Cluster[] = [];
  let cluster: Hit[] = [];
  let clusterEnd = -Infinity;
  const close = () => clusters.push({ field: cluster[0]!.field, score: scoreCluster(cluster), evidence: new Set(cluster.map((hit) => `${hit.rule}\u0000${hit.text}`)) });
  for (const hit of ordered) {
    if (cluster.length > 0 && (hit.field !== cluster[0]!.field || hit.span.start > clusterEnd + CLUSTER_GAP)) {
      close();
      cluster = [];
      clusterEnd = -Infinity;
    }
    cluster.push(hit);
    clusterEnd = Math.max(clusterEnd, hit.span.end);
  }
  close();
  return clusters;
}

/**
 * Whether clusters[index] repeats a cluster of another field: all its evidence is in that one,
 * which scores at least as high (of two that repeat each other at the same score, the first stays).
 */
function repeatsAnother(clusters: readonly Cluster[], index: number): boolean {
  const cluster = clusters[index]!;
  return clusters.some((other, otherIndex) =>
    otherIndex !== index &&
    other.field !== cluster.field &&
    (other.score > cluster.score || (other.score === cluster.score && (otherIndex < index || other.evidence.size > cluster.evidence.size))) &&
    isSubset(cluster.evidence, other.evidence));
}

function isSubset(part: ReadonlySet<string>, whole: ReadonlySet<string>): boolean {
  for (const entry of part) if (!whole.has(entry)) return false;
  return true;
}

function scoreCluster(cluster: readonly Hit[]): number {
  const addressed = cluster.some((hit) => hit.role === 'carrier' && hit.weight >= ADDRESSED_CARRIER);
  const strongest = new Map<string, { role: RuleRole; weight: number }>();
  for (const hit of cluster) {
    const key = `${hit.role}:${hit.technique}`;
    const weight = !addressed && hit.role === 'payload' && PERSON_DIRECTED.has(hit.technique) ? hit.weight * PERSON_DIRECTED_FACTOR : hit.weight;
    const current = strongest.get(key);
    if (current === undefined || weight > current.weight) strongest.set(key, { role: hit.role, weight });
  }
  const payload = noisyOr([...strongest.values()].filter((entry) => entry.role === 'payload').map((entry) => entry.weight));
  const carrier = noisyOr([...strongest.values()].filter((entry) => entry.role === 'carrier').map((entry) => entry.weight));
  return payload > 0 ? 1 - (1 - payload) * (1 - carrier) : carrier * CARRIER_ONLY_FACTOR;
}

function noisyOr(weights: readonly number[]): number {
  return 1 - weights.reduce((keep, weight) => keep * (1 - weight), 1);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function verdictFor(score: number, thresholds: Thresholds = DEFAULT_THRESHOLDS): Verdict {
  if (score >= thresholds.drop) return 'drop';
  if (score >= thresholds.quarantine) return 'quarantine';
  if (score >= thresholds.downweight) return 'downweight';
  return 'accept';
}
