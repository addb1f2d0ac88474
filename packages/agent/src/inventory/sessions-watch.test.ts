import { describe, expect, it } from 'vitest';
import type { UserSession } from '@outpost/contract/agent-protocol';
import { createSessionsWatch, sessionPollMs, utmpPath } from './sessions-watch';

/** A utmp file, a session lister and a clock the test changes by hand. */
function fakeMachine(file: string | null = '/var/run/utmp') {
  const state = {
    utmp: { mtimeMs: 1000, size: 384 } as { mtimeMs: number; size: number } | null,
    sessions: [{ sessionId: 'a', userName: 'ana' }] as UserSession[],
    listed: 0,
    at: 0,
  };
  const watch = createSessionsWatch({
    file,
    list: () => {
      state.listed++;
      return Promise.resolve([...state.sessions]);
    },
    stat: () => state.utmp,
    now: () => state.at,
    refreshMs: 600_000,
  });
  return { state, watch };
}

describe('the session poll', () => {
  it('lists the sessions again only when the utmp file changed', async () => {
    const { state, watch } = fakeMachine();
    expect(await watch.fresh()).toEqual([{ sessionId: 'a', userName: 'ana' }]);
    state.at += 15_000;
    expect(await watch.poll()).toEqual([{ sessionId: 'a', userName: 'ana' }]);
    expect(state.listed).toBe(1);
    // a login rewrites the file
    state.sessions.push({ sessionId: 'b', userName: 'bo' });
    state.utmp = { mtimeMs: 2000, size: 768 };
    expect((await watch.poll()).map((s) => s.sessionId)).toEqual(['a', 'b']);
    expect(state.listed).toBe(2);
  });

  it('lists them anyway once the refresh time has passed', async () => {
    const { state, watch } = fakeMachine();
    await watch.poll();
    state.at += 599_000;
    await watch.poll();
    expect(state.listed).toBe(1);
    state.at += 1000;
    await watch.poll();
    expect(state.listed).toBe(2);
  });

  it('counts a missing utmp file as a state, and its appearance as a change', async () => {
    const { state, watch } = fakeMachine();
    state.utmp = null;
    await watch.poll();
    await watch.poll();
    expect(state.listed).toBe(1);
    state.utmp = { mtimeMs: 5, size: 384 };
    await watch.poll();
    expect(state.listed).toBe(2);
  });

  it('lists them at every poll where there is no utmp file to watch (Windows)', async () => {
    const { state, watch } = fakeMachine(null);
    await watch.poll();
    await watch.poll();
    await watch.poll();
    expect(state.listed).toBe(3);
  });

  it('watches utmp on Linux and macOS, and polls Windows less often', () => {
    expect(utmpPath('linux')).toBe('/var/run/utmp');
    expect(utmpPath('darwin')).toBe('/var/run/utmpx');
    expect(utmpPath('win32')).toBeNull();
    expect(sessionPollMs('win32')).toBeGreaterThan(sessionPollMs('linux'));
  });
});
