import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rememberedRun } from './evidence-memory.ts';
import { createLocalStore } from '../../runtime/sink-store.ts';
import { changesSince, diffRuns, previousRun, renderChanges, type ComparableItem } from './run-changes.ts';

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
    expect(diffRuns(null, [item('a', 'https://a.example/1', 'h')])).toEqual({ previous_run_id: null, new: [], changed: [], moved_in: [], moved_out: [], removed: [] });
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

describe('changesSince (against the topic memory)', () => {
  const a = item('a', 'https://a.example/', 'ha');
  const b = item('b', 'https://b.example/', 'hb');
  const c = item('c', 'https://c.example/', 'hc');
  const d = item('d', 'https://d.example/', 'hd');
  const remembered = (runId: string, kept: ComparableItem[], cut: ComparableItem[] = []) => rememberedRun({ stamp: runId, runId, requestedAt: '2026-11-01T00:00:00Z', kept, cut });
  const ids = (refs: { id: string }[]) => refs.map((entry) => entry.id);

  it('the same evidence again is no change at all', () => {
    const changes = changesSince([remembered('run-1', [a, b], [c])], { kept: [a, b], cut: [c] });
    expect(changes).toEqual({ previous_run_id: 'run-1', new: [], changed: [], moved_in: [], moved_out: [], removed: [] });
    expect(renderChanges(changes)).toContain('No new, changed or removed items.');
  });

  it('an item crossing the cut is reported as moving, never as new or removed', () => {
    const changes = changesSince([remembered('run-1', [a, b], [c])], { kept: [a, c], cut: [b] });
    expect(ids(changes.moved_in)).toEqual(['c']);
    expect(ids(changes.moved_out)).toEqual(['b']);
    expect(changes.new).toEqual([]);
    expect(changes.removed).toEqual([]);
    expect(renderChanges(changes)).toContain('**Moved above the cut (1)**\n- [c](https://c.example/)');
  });

  it('new means never seen in the window; removed means no longer found at all', () => {
    const prior = [remembered('run-1', [d]), remembered('run-2', [a, b])];
    const changes = changesSince(prior, { kept: [a, c, d], cut: [] });
    expect(ids(changes.new)).toEqual(['c']);
    // d was found two runs ago: back, not new.
    expect(ids(changes.moved_in)).toEqual(['d']);
    expect(ids(changes.removed)).toEqual(['b']);
  });

  it('changed: kept both times with other content', () => {
    const changes = changesSince([remembered('run-1', [a])], { kept: [{ ...a, content_hash: 'ha-2' }], cut: [] });
    expect(ids(changes.changed)).toEqual(['a']);
  });

  it('a first run has nothing to compare with', () => {
    expect(changesSince([], { kept: [a], cut: [b] }).previous_run_id).toBeNull();
  });
});

describe('previousRun', () => {
  it('skips failed and incomplete runs: they are not what readers last saw', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-changes-'));
    fs.mkdirSync(path.join(dir, 'normalized'));
    for (const [stamp, runId, status] of [['20261101T000000000Z', 'run-good', 'ok'], ['20261102T000000000Z', 'run-failed', 'failed'], ['20261103T000000000Z', 'run-cut-short', 'incomplete']]) {
      fs.writeFileSync(path.join(dir, 'normalized', `${stamp}.json`), JSON.stringify({ run_id: runId, status, items: [item('x', 'https://x.example/', 'hx')] }));
    }
    expect((await previousRun(createLocalStore(dir), '', '20261104T000000000Z'))?.run_id).toBe('run-good');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is the newest normalized run strictly older than this one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-changes-'));
    fs.mkdirSync(path.join(dir, 'normalized'));
    for (const [stamp, runId] of [['20261101T000000000Z', 'run-old'], ['20261102T000000000Z', 'run-mid'], ['20261103T000000000Z', 'run-this']]) {
      fs.writeFileSync(path.join(dir, 'normalized', `${stamp}.json`), JSON.stringify({ run_id: runId, items: [item('x', 'https://x.example/', 'hx')] }));
    }
    expect((await previousRun(createLocalStore(dir), '', '20261103T000000000Z'))?.run_id).toBe('run-mid');
    expect((await previousRun(createLocalStore(dir), '', '20261101T000000000Z'))).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
