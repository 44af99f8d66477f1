import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { TOPIC_NAMES } from '../../topics/topics.ts';

describe('skrya topics create', () => {
  it('creates the whole table once; a second run creates nothing', () => {
    const env = { ...process.env, SKRYA_KAFKA_BROKERS: inject('kafkaBrokers'), SKRYA_REGISTRY_URL: inject('registryUrl'), SKRYA_TOPIC_PREFIX: `t.topics-cli.${randomBytes(4).toString('hex')}.`, SKRYA_LOG_LEVEL: 'warn' };
    const run = () => spawnSync(process.execPath, ['bin/skrya.js', 'topics', 'create'], { encoding: 'utf8', env, timeout: 60_000 });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.match(/^created /gm)).toHaveLength(TOPIC_NAMES.length);
    const second = run();
    expect(second.status).toBe(0);
    expect(second.stdout.match(/^exists /gm)).toHaveLength(TOPIC_NAMES.length);
  });
});
