/**
 * Search hints per source: queries built from the subject, the known information gaps, the
 * preferred domains (web only, as `site:` queries) and, for counter-search, queries that look
 * for criticism and disputes ("对立观点/质疑信源").
 */
import type { RouteInput, SourceType } from './route-input.ts';

export interface HintContext extends Pick<RouteInput, 'primary_subject' | 'information_gaps' | 'preferred_domains' | 'freshness_required'> {
  /** Rule 3 applied: web only chases the gaps the local sources leave. */
  localFirst: boolean;
}

/** A gap that already names the subject is searched as written. */
function gapQuery(subject: string, gap: string): string {
  return gap.toLowerCase().includes(subject.toLowerCase()) ? gap : `${subject} ${gap}`;
}

export function counterHints(subject: string): string[] {
  return [`${subject} criticism`, `${subject} 问题 争议`];
}

export function searchHints(source: SourceType, context: HintContext): string[] {
  const subject = context.primary_subject;
  const gaps = context.information_gaps.map((gap) => gapQuery(subject, gap));
  let hints: string[];
  if (source === 'counter') {
    hints = counterHints(subject);
  } else if (source === 'web') {
    const gapsOnly = context.localFirst && context.freshness_required !== 'high' && gaps.length > 0;
    hints = [...(gapsOnly ? gaps : [subject, ...gaps]), ...context.preferred_domains.map((domain) => `site:${domain} ${subject}`)];
  } else {
    hints = [subject, ...gaps];
  }
  return [...new Set(hints)];
}
