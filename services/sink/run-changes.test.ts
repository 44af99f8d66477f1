import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffRuns, previousRun, renderChanges, type ComparableItem } from './run-changes.ts';

const item = (id: string, url: string | null, hash: string, title = id): ComparableItem => ({ id, title, url, canonical_url: url, content_hash: hash });

describe('diffRuns', () => {
  const previous = { run_id: 'run-1', items: [item('a1', 'https://a.example/1', 'h1'), item('b1', 'https://a.example/2', 'h2'), item('c1', null, 'h3')] };

  it('reports new, changed and removed items by canonical URL, or content when there is no URL', () => {
    const current = [item('a2', 'https://a.example/1', 'h1'), item('b2', 'https://a.example/2', 'h2-edited'), item('d2', 'https://a.example/4', 'h4'), item('c2', null, 'h3')];
    const changes = diffRuns(previous, current);
    expect(changes.previous_run_id).toBe('run-1');
    expect(changes.new.map((entry) => entry.id)).toEqual(['d2']);
    expect(changes.changed.map((entry) => entry.id)).toEqual(['b2']);
    expect(changes.removed).toEqual([]);
    expect(diffRuns(previous, [current[0]!]).removed.map((entry) => entry.id)).toEqual(['b1', 'c1']);
  });

  it('has nothing to compare on a first run', () => {
    expect(diffRuns(null, [item('a', 'https://a.example/1', 'h')])).toEqual({ previous_run_id: null, new: [], changed: [], removed: [] });
    expect(renderChanges(diffRuns(null, []))).toContain('First run of this topic');
  });

  it('renders each list with links, or says nothing changed', () => {
    const markdown = renderChanges(diffRuns(previous, [item('a2', 'https://a.example/1', 'h1'), item('z', 'https://z.example/', 'hz', 'Zed')]));
    expect(markdown).toContain('## Changes since run-1');
    expect(markdown).toContain('**New (1)**\n- [Zed](https://z.example/)');
    expect(markdown).toContain('**Removed (2)**');
    expect(renderChanges(diffRuns(previous, previous.items))).toContain('No new, changed or removed items.');
  });
});

describe('previousRun', () => {
  it('is the newest normalized run strictly older than this one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-changes-'));
    fs.mkdirSync(path.join(dir, 'normalized'));
    for (const [stamp, runId] of [['20261101T000000000Z', 'run-old'], ['20261102T000000000Z', 'run-mid'], ['20261103T000000000Z', 'run-this']]) {
      fs.writeFileSync(path.join(dir, 'normalized', `${stamp}.json`), JSON.stringify({ run_id: runId, items: [item('x', 'https://x.example/', 'hx')] }));
    }
    expect(previousRun(dir, '20261103T000000000Z')?.run_id).toBe('run-mid');
    expect(previousRun(dir, '20261101T000000000Z')).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
