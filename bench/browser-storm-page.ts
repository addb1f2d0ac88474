/// <reference lib="dom" />
// What bench/browser-storm.ts runs in the page, and the web build it serves.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './lib';

export type PagePhase = {
  /** every socket message, and the device_update ones */
  messages: number;
  updates: number;
  longTasks: { start: number; duration: number }[];
  events: { name: string; interactionId: number; start: number; duration: number; processing: number }[];
};

declare global {
  interface Window {
    __storm: { reset(): void; read(): PagePhase };
  }
}

/**
 * Installed before any page script: long tasks and event timing entries (interactions only,
 * durationThreshold 16, the lowest allowed) collected, and the socket's messages counted by a
 * listener added to every WebSocket the page opens. Plain JavaScript: the page runs it as written.
 */
export const stormPageScript = `(() => {
  const state = { messages: 0, updates: 0, longTasks: [], events: [] };
  window.__storm = {
    reset() {
      state.messages = 0;
      state.updates = 0;
      state.longTasks = [];
      state.events = [];
    },
    read: () => JSON.parse(JSON.stringify(state)),
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      state.longTasks.push({ start: e.startTime, duration: e.duration });
    }
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.interactionId > 0) {
        state.events.push({
          name: e.name,
          interactionId: e.interactionId,
          start: e.startTime,
          duration: e.duration,
          processing: e.processingEnd - e.processingStart,
        });
      }
    }
  }).observe({ type: 'event', buffered: true, durationThreshold: 16 });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (m) => {
        state.messages++;
        if (typeof m.data === 'string' && m.data.startsWith('{"type":"device_update"')) {
          state.updates++;
        }
      });
    }
  };
})();`;

/** A production build of the web app in a temporary directory (what the server serves). */
export function buildWeb(log: (line: string) => void) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-storm-web-'));
  log(`vite build → ${outDir}`);
  const build = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'],
    { cwd: path.join(repoRoot, 'packages/web'), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  if (build.status !== 0) {
    console.error(build.stdout, build.stderr);
    throw new Error('the web build failed');
  }
  return outDir;
}
