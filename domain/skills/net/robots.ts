/**
 * robots.txt for public-URL fetches (RFC 9309): fetched once per origin per run, 4xx = everything
 * allowed, 5xx or unreachable = everything disallowed until a later run.
 */
import robotsParserModule from 'robots-parser';

interface ParsedRobots {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
}

// robots-parser is CommonJS (`module.exports = fn`): the default import is the function itself.
const robotsParser = robotsParserModule as unknown as (url: string, robotstxt: string) => ParsedRobots;

export const ROBOTS_USER_AGENT = 'SkryaBot';

export type RobotsVerdict = (url: string) => boolean;

/** Fetches robots.txt text; returns the HTTP status and body (a network failure is status 0). */
export type RobotsFetch = (robotsUrl: string) => Promise<{ status: number; body: string }>;

const MAX_CACHED_ORIGINS = 1_000;

export interface RobotsCache {
  isAllowed(url: URL, runId: string, fetchRobots: RobotsFetch): Promise<boolean>;
}

export function createRobotsCache(): RobotsCache {
  const verdicts = new Map<string, Promise<RobotsVerdict>>();

  const load = async (origin: string, fetchRobots: RobotsFetch): Promise<RobotsVerdict> => {
    const robotsUrl = `${origin}/robots.txt`;
    const { status, body } = await fetchRobots(robotsUrl).catch(() => ({ status: 0, body: '' }));
    if (status >= 200 && status < 300) {
      const robots = robotsParser(robotsUrl, body);
      return (url) => robots.isAllowed(url, ROBOTS_USER_AGENT) !== false;
    }
    if (status >= 400 && status < 500) return () => true;
    return () => false;
  };

  return {
    async isAllowed(url, runId, fetchRobots) {
      const key = `${runId}\n${url.origin}`;
      let verdict = verdicts.get(key);
      if (!verdict) {
        if (verdicts.size >= MAX_CACHED_ORIGINS) {
          const oldest = verdicts.keys().next().value;
          if (oldest !== undefined) verdicts.delete(oldest);
        }
        verdict = load(url.origin, fetchRobots);
        verdicts.set(key, verdict);
      }
      return (await verdict)(url.toString());
    },
  };
}
