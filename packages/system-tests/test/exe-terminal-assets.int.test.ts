import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const cache = path.join(repo, 'node_modules', '.cache', 'outpost-node');

type Manifest = { files: { path: string; mode: number }[] };

/** The manifest the build embedded: the JSON object that starts with {"files":[ */
function embeddedManifest(exe: Buffer): Manifest {
  const at = exe.indexOf('{"files":[{"path":"node_modules/');
  expect(at).toBeGreaterThan(0);
  const end = exe.indexOf(']}', at);
  return JSON.parse(exe.subarray(at, end + 2).toString('utf8')) as Manifest;
}

/** A file of the platform package as the npm registry ships it (the build's checked cache). */
function fromTarball(pkg: string, file: string): Buffer {
  const tarball = path.join(cache, `lydell-${pkg}-1.1.0.tgz`);
  return execFileSync('tar', ['-xzOf', tarball, `package/${file}`], { maxBuffer: 64 * 1024 * 1024 });
}

// The terminal of the macOS and Windows single executables (docs/decisions/2026-11-27-remote-terminal.md):
// built on this Linux machine by the project's script, with node-pty's platform package fetched
// from the registry and checked against package-lock.json; each embeds node-pty's scripts and the
// platform's native files (never the .pdb debug symbols) and the manifest the agent extracts by.
describe('the terminal files in the Windows and macOS single executables', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-exe-assets-'));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  const build = (platform: string) =>
    exec(
      'node',
      ['scripts/build-agent-exe.mjs', '--platform', platform, '--version', '9.8.7-assets', '--out', out],
      {
        cwd: repo,
        maxBuffer: 16 * 1024 * 1024,
      },
    );

  const scripts = [
    'node_modules/@lydell/node-pty/package.json',
    'node_modules/@lydell/node-pty/index.js',
    'node_modules/@lydell/node-pty/requireBinary.js',
    'node_modules/@lydell/node-pty/windowsConoutConnection.js',
    'node_modules/@lydell/node-pty/conpty_console_list_agent.js',
    'node_modules/@lydell/node-pty/worker/conoutSocketWorker.js',
    'node_modules/@lydell/node-pty/shared/conout.js',
  ];

  it('win-x64: conpty.node, conpty_console_list.node and the worker scripts', async () => {
    await build('win-x64');
    const exe = fs.readFileSync(path.join(out, 'outpost-agent-win-x64.exe'));
    const manifest = embeddedManifest(exe);
    const paths = manifest.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(scripts));
    const native = manifest.files.filter((f) =>
      f.path.startsWith('node_modules/@lydell/node-pty-win32-x64/'),
    );
    expect(native).toEqual([
      { path: 'node_modules/@lydell/node-pty-win32-x64/package.json', mode: 0o600 },
      { path: 'node_modules/@lydell/node-pty-win32-x64/conpty.node', mode: 0o600 },
      { path: 'node_modules/@lydell/node-pty-win32-x64/conpty_console_list.node', mode: 0o600 },
    ]);
    for (const file of ['conpty.node', 'conpty_console_list.node']) {
      expect(exe.indexOf(fromTarball('node-pty-win32-x64', file)), file).toBeGreaterThan(0);
    }
    expect(exe.indexOf(fromTarball('node-pty-win32-x64', 'conpty.pdb').subarray(0, 4096))).toBe(-1);
  }, 480_000);

  it('darwin-x64: pty.node and spawn-helper, which is extracted executable', async () => {
    await build('darwin-x64');
    const exe = fs.readFileSync(path.join(out, 'outpost-agent-darwin-x64'));
    const manifest = embeddedManifest(exe);
    expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(scripts));
    expect(
      manifest.files.filter((f) => f.path.startsWith('node_modules/@lydell/node-pty-darwin-x64/')),
    ).toEqual([
      { path: 'node_modules/@lydell/node-pty-darwin-x64/package.json', mode: 0o600 },
      { path: 'node_modules/@lydell/node-pty-darwin-x64/pty.node', mode: 0o600 },
      { path: 'node_modules/@lydell/node-pty-darwin-x64/spawn-helper', mode: 0o700 },
    ]);
    for (const file of ['pty.node', 'spawn-helper']) {
      expect(exe.indexOf(fromTarball('node-pty-darwin-x64', file)), file).toBeGreaterThan(0);
    }
  }, 480_000);
});
