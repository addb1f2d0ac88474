import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '@outpost/server/test-support';
import { KEEPALIVE_PRELOAD, patchVirtualAlloc2 } from './wine-harness';
import type { WinePrefix, WineProcess } from './wine-harness';

// The device side of the Windows suite: the executable built by the project's script, installed
// in the prefix with the test-only workarounds. The portal calls the checks go through are
// ../support/portal.ts.

const exec = promisify(execFile);
export const repo = path.resolve(import.meta.dirname, '../../../..');
export const EXE = 'outpost-agent-win-x64.exe';

/** `npm run build:agent-exe -- --platform win-x64` with a version of its own. */
export async function buildWindowsAgent(version: string, out: string): Promise<string> {
  await exec(
    'node',
    ['scripts/build-agent-exe.mjs', '--platform', 'win-x64', '--version', version, '--out', out],
    {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return path.join(out, EXE);
}

/** The device: C:\outpost holds the patched executable, its configuration and the preload. */
export function installInPrefix(wine: WinePrefix, built: string) {
  const home = path.join(wine.driveC, 'outpost');
  fs.mkdirSync(home, { recursive: true });
  const exe = path.join(home, EXE);
  patchVirtualAlloc2(built, exe);
  const preload = path.join(home, 'keepalive.cjs');
  fs.writeFileSync(preload, KEEPALIVE_PRELOAD);
  const config = path.join(home, 'config', 'agent.json');
  const baseEnv = { OUTPOST_AGENT_CONFIG: wine.winPath(config), OUTPOST_AGENT_DRY_RUN: '1' };
  const env = { ...baseEnv, NODE_OPTIONS: `--require ${wine.winPath(preload).replaceAll('\\', '/')}` };
  return { home, exe, winExe: wine.winPath(exe), config, env, baseEnv };
}

/** Waits until a started Windows program has written `text`. */
export function outputContains(proc: WineProcess, text: string, timeoutMs = 60_000) {
  return eventually(() => Promise.resolve(proc.output().includes(text) ? true : null), timeoutMs);
}
