/**
 * The Chromium the browser tests drive: Debian's package (`apt-get install chromium`, which
 * `scripts/ensure-deps.mjs --with-chromium` runs for `npm test` and `.ci/run`), never a download.
 * SKRYA_CHROMIUM_PATH points at another build.
 */
import fs from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const found = env.SKRYA_CHROMIUM_PATH ? [env.SKRYA_CHROMIUM_PATH] : CANDIDATES.filter((candidate) => fs.existsSync(candidate));
  if (found.length === 0 || !fs.existsSync(found[0]!)) {
    throw new Error(`no Chromium for the browser tests (looked for ${env.SKRYA_CHROMIUM_PATH ?? CANDIDATES.join(', ')}): run \`node scripts/ensure-deps.mjs --with-chromium\` as root, or \`apt-get install chromium\`, or set SKRYA_CHROMIUM_PATH`);
  }
  return found[0]!;
}
