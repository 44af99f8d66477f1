/**
 * `skrya stack` as an operator uses it. The global setup has already brought the stack up,
 * so a further `up` must be a no-op; start-up failures must name the step and what to fix.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test/support/service-ports.ts';

const CLI = path.resolve('bin/skrya.js');

function skrya(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
}

describe('skrya stack', () => {
  it('a second `up` starts nothing and reports both components healthy', () => {
    const result = skrya(['stack', 'up', '--json']);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/starting|fetching/);
    const status = JSON.parse(result.stdout) as Array<{ name: string; healthy: boolean; pid: number }>;
    expect(status.map((component) => [component.name, component.healthy])).toEqual([['kafka', true], ['registry', true]]);
  });

  it('`status` exits 0 when healthy and names each endpoint and log', () => {
    const result = skrya(['stack', 'status']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/kafka\s+healthy/);
    expect(result.stdout).toMatch(/registry\s+healthy/);
  });

  it('refuses a taken port, naming the port and the setting to change', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-stack-'));
    try {
      const result = skrya(['stack', 'up'], {
        SKRYA_STACK_DIR: stateDir,
        SKRYA_KAFKA_PORT: String(port),
        SKRYA_KAFKA_CONTROLLER_PORT: String(await freePort()),
        SKRYA_REGISTRY_PORT: String(await freePort()),
        SKRYA_REGISTRY_MANAGEMENT_PORT: String(await freePort()),
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${port} is already taken`);
      expect(result.stderr).toContain('SKRYA_KAFKA_PORT');
    } finally {
      server.close();
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('explains a missing Maven instead of failing obscurely', () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-stack-'));
    // A PATH with node and nothing else.
    const bin = path.join(stateDir, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    try {
      const result = skrya(['stack', 'up'], { SKRYA_STACK_DIR: stateDir, PATH: bin });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/stack prerequisites: Apache Maven .* 'mvn' was not found/);
    } finally {
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('`down` on a state folder it never started touches nothing', () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-stack-'));
    try {
      // A pid file naming a process we did not start (this test runner) must not be signalled.
      fs.writeFileSync(path.join(stateDir, 'kafka.pid'), String(process.pid));
      const result = skrya(['stack', 'down'], { SKRYA_STACK_DIR: stateDir });
      expect(result.status).toBe(0);
      expect(result.stderr).not.toContain('stopping kafka');
    } finally {
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
