import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CRASH_MARKER_FILE, openCrashMarker } from './crash-marker';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const stateDir = async () => {
  const d = await mkdtemp(path.join(os.tmpdir(), 'outpost-crash-'));
  dirs.push(d);
  return d;
};

describe('the crash marker', () => {
  it('finds nothing after a first start or a clean stop', async () => {
    const dir = await stateDir();
    const first = openCrashMarker(dir);
    expect(first.previousCrash).toBeNull();
    expect(fs.existsSync(path.join(dir, CRASH_MARKER_FILE))).toBe(true);
    first.clear();
    expect(fs.existsSync(path.join(dir, CRASH_MARKER_FILE))).toBe(false);
    expect(openCrashMarker(dir).previousCrash).toBeNull();
  });

  it('reports a run that ended without a clean stop, once', async () => {
    const dir = await stateDir();
    openCrashMarker(dir, { now: () => new Date('2026-11-27T08:00:00Z'), pid: 4242 }); // never cleared
    const next = openCrashMarker(dir, { now: () => new Date('2026-11-27T08:05:00Z') });
    expect(next.previousCrash).toEqual({
      at: '2026-11-27T08:05:00.000Z',
      reason: 'The agent started at 2026-11-27T08:00:00.000Z (process 4242) did not stop cleanly',
    });
    next.clear();
    expect(openCrashMarker(dir).previousCrash).toBeNull();
  });
});
