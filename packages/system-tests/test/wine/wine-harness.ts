import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The Windows agent under Wine 8 (docs/agent-windows.md). Three workarounds make Node 24 run
// there; they belong to the tests only, the shipped executable stays as it is, and the suite
// checks each one is still needed and still works (wineWorkarounds in the test):
// 1. V8 reserves memory with VirtualAlloc2 placeholders, which Wine 8 refuses ("Fatal process out
//    of memory: SegmentedTable::InitializeTable"): the test copy of the executable has its one
//    `VirtualAlloc2` import renamed so it does not resolve, and V8 takes its fallback path.
// 2. Wine 8 rejects the TCP keep-alive option undici sets before connecting, so every fetch()
//    fails with `connect UNKNOWN`: a preload (NODE_OPTIONS=--require) defers setKeepAlive until
//    the socket is connected.
// 3. node.exe fails with EBADF when its stdout or stderr is a Linux pipe: it writes to files.

export const VIRTUAL_ALLOC2 = Buffer.from('VirtualAlloc2\0', 'latin1');
const RENAMED = Buffer.from('VirtualAllocX\0', 'latin1');

export const KEEPALIVE_PRELOAD = `// Wine 8 rejects SO_KEEPALIVE on a socket that is still connecting (test-only workaround)
const net = require('node:net');
const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function (enable, delay) {
  if (this.connecting) {
    this.once('connect', () => setKeepAlive.call(this, enable, delay));
    return this;
  }
  return setKeepAlive.call(this, enable, delay);
};
`;

/** Why this machine cannot run the Wine suite, or null when it can. */
export function wineUnavailableReason(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return `the Windows agent suite runs on Linux x64 with Wine (this is ${process.platform}-${process.arch})`;
  }
  if (spawnSync('wine', ['--version'], { stdio: 'ignore' }).status !== 0) {
    return 'Wine is not installed (node scripts/wine.mjs installs it from Debian)';
  }
  return null;
}

/** Copies a Windows executable with its VirtualAlloc2 import renamed (workaround 1). */
export function patchVirtualAlloc2(from: string, to: string): void {
  const data = fs.readFileSync(from);
  const at = data.indexOf(VIRTUAL_ALLOC2);
  if (at < 0 || data.indexOf(VIRTUAL_ALLOC2, at + 1) >= 0) {
    throw new Error(`${from}: expected exactly one VirtualAlloc2 import name`);
  }
  RENAMED.copy(data, at);
  fs.writeFileSync(to, data);
}

export type WineResult = { code: number | null; stdout: string; stderr: string };

export type WinePrefix = {
  dir: string;
  /** C:\ of the prefix, on this machine */
  driveC: string;
  env: NodeJS.ProcessEnv;
  /** a path of this machine as a Windows program sees it */
  winPath(file: string): string;
  /** runs a Windows program to its end, its output through files (workaround 3) */
  run(args: string[], options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<WineResult>;
  /** starts a long-running Windows program, its output in a file */
  start(args: string[], options?: { env?: NodeJS.ProcessEnv }): WineProcess;
  /** `reg query KEY /v NAME` inside the prefix: the value's data, or null */
  regQuery(key: string, name: string): Promise<string | null>;
  close(): void;
};

export type WineProcess = { child: ChildProcess; output(): string; exited: Promise<number | null> };

function waitFor(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** A fresh prefix reporting Windows 10, its wineserver kept up for the run and stopped by close(). */
export function createWinePrefix(): WinePrefix {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-wine-'));
  const prefix = path.join(dir, 'prefix');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    // no Mono or Gecko download prompts
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    WINEARCH: 'win64',
  };
  delete env.NODE_OPTIONS;
  const boot = (args: string[]) => {
    const r = spawnSync(args[0]!, args.slice(1), { env, stdio: 'ignore', timeout: 120_000 });
    if (r.status !== 0) {
      throw new Error(`${args.join(' ')} failed (${r.status ?? r.signal})`);
    }
  };
  boot(['wineboot', '-i']);
  boot(['winecfg', '-v', 'win10']);
  // one wineserver for the whole run: every start after the first is quicker
  spawnSync('wineserver', ['-p'], { env, stdio: 'ignore' });
  let seq = 0;
  const driveC = path.join(prefix, 'drive_c');
  const winPath = (file: string) => {
    const abs = path.resolve(file);
    return abs.startsWith(driveC + path.sep)
      ? `C:\\${abs.slice(driveC.length + 1).replaceAll('/', '\\')}`
      : `Z:${abs.replaceAll('/', '\\')}`;
  };
  const start = (args: string[], options: { env?: NodeJS.ProcessEnv } = {}): WineProcess => {
    const out = path.join(dir, `out-${++seq}.log`);
    const fd = fs.openSync(out, 'w');
    const child = spawn('wine', args, { env: { ...env, ...options.env }, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, output: () => fs.readFileSync(out, 'utf8'), exited };
  };
  const run = async (args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) => {
    const n = ++seq;
    const files = [path.join(dir, `run-${n}.out`), path.join(dir, `run-${n}.err`)];
    const fds = files.map((f) => fs.openSync(f, 'w'));
    const child = spawn('wine', args, {
      env: { ...env, ...options.env },
      stdio: ['ignore', fds[0]!, fds[1]!],
    });
    fds.forEach((fd) => fs.closeSync(fd));
    const code = await waitFor(child, options.timeoutMs ?? 60_000);
    const [stdout, stderr] = files.map((f) => fs.readFileSync(f, 'utf8'));
    return { code, stdout: stdout!, stderr: stderr! };
  };
  return {
    dir,
    driveC,
    env,
    winPath,
    run,
    start,
    async regQuery(key, name) {
      const r = await run(['reg', 'query', key, '/v', name]);
      const line = r.stdout.split(/\r?\n/).find((l) => l.trim().startsWith(`${name} `));
      return line
        ? line
            .trim()
            .split(/\s{2,}|\t/)
            .slice(2)
            .join(' ')
        : null;
    },
    close() {
      spawnSync('wineserver', ['-k'], { env, stdio: 'ignore' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
