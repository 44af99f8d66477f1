import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/skrya.js', import.meta.url));

function skrya(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, BRAVE_API_KEY: '', SKRYA_LOG_LEVEL: 'error' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

// Each case spawns the real CLI (tsx start-up dominates), so they run side by side.
describe.concurrent('skrya skills', () => {
  it('test: passes every built-in smoke test on the mock adapter', async () => {
    const { code, stdout } = await skrya(['skills', 'test']);
    expect(code).toBe(0);
    expect(stdout).toContain('8 passed, 0 failed');
  });

  it('run --mock: prints the results of a recorded provider response', async () => {
    const { code, stdout } = await skrya(['skills', 'run', 'brave_web_search', '--mock', '--input', '{"query":"kubernetes 1.31 release notes"}']);
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as { status: string; results: Array<{ url: string }>; raw: Array<{ bytes: number }> };
    expect(printed.status).toBe('ok');
    expect(printed.results[0]?.url).toBe('https://kubernetes.io/blog/2024/08/13/kubernetes-v1-31-release/');
    expect(printed.raw[0]?.bytes).toBeGreaterThan(0);
  });

  it.each([
    { args: ['skills', 'run', 'brave_web_search', '--input', '{"query":'], code: 2, stream: 'stderr', text: '--input is not valid JSON' },
  ])('run with $text: exit $code', async ({ args, code, stream, text }) => {
    const result = await skrya(args);
    expect(result.code).toBe(code);
    expect(stream === 'stderr' ? result.stderr : result.stdout).toContain(text);
  });
});
