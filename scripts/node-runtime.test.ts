import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nodeSupport } from './node-runtime.mjs';

describe('nodeSupport', () => {
  it.each([
    ['24.0.0', 'supported'],
    ['24.22.3', 'supported'],
    ['22.18.0', 'supported'],
    ['22.23.5', 'supported'],
    ['22.17.1', 'unsupported'], // type stripping is still behind a flag there
    ['23.11.0', 'unsupported'], // an odd line, out of support
    ['20.20.2', 'unsupported'],
    ['26.1.0', 'newer'],
  ])('Node %s is %s', (version, expected) => {
    expect(nodeSupport(version)).toBe(expected);
  });
});

describe('assertSupportedNode', () => {
  const check = (version: string) => spawnSync(process.execPath, ['--input-type=module', '-e', `(await import('./scripts/node-runtime.mjs')).assertSupportedNode('skrya', '${version}'); console.log('ran');`], { encoding: 'utf8' });

  it('stops an unsupported Node with a message naming what to install', () => {
    const result = check('20.20.2');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Node v20.20.2 cannot run Skrya: it needs Node 24 or Node 22 from 22.18.0');
    expect(result.stderr).toContain('npm run skrya');
  });

  it('lets a supported Node run silently and a newer one run with a warning', () => {
    expect(check('24.22.3')).toMatchObject({ status: 0, stdout: 'ran\n', stderr: '' });
    const newer = check('26.1.0');
    expect(newer).toMatchObject({ status: 0, stdout: 'ran\n' });
    expect(newer.stderr).toContain('newer than the lines Skrya is tested on');
  });
});
