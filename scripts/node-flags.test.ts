import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_NODE_FLAGS } from './node-flags.mjs';

// `npm start` runs the server with the embedded default's V8 flags (scripts/node-flags.mjs) in a
// child process: the flags reach V8 (the young generation stays small) and the child's exit code
// is the script's.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-node-flags-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const runner = (output: string, flags: string[]) =>
  spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(path.join(import.meta.dirname, 'build-state.mjs'))});
       await m.runCompiled(${JSON.stringify(output)}, ${JSON.stringify(flags)});`,
    ],
    { encoding: 'utf8' },
  );

describe('runCompiled with the embedded flags', () => {
  it('starts the program with them: its young generation stops at two 16 MB semi-spaces', () => {
    // objects that live a while make V8 grow the young generation (to 128 MB without the flag
    // on a machine with a few GB, measured)
    const program = path.join(dir, 'report.mjs');
    fs.writeFileSync(
      program,
      `import v8 from 'node:v8';
       const keep = new Array(200000);
       for (let i = 0; i < 3000000; i++) keep[i % keep.length] = { i, s: 'x' + i };
       const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
       console.log(JSON.stringify({ argv: process.execArgv, youngMb: young.space_size / 2 ** 20 }));`,
    );
    const withFlags = runner(program, EMBEDDED_NODE_FLAGS);
    expect(withFlags.status, withFlags.stderr).toBe(0);
    const seen = JSON.parse(withFlags.stdout.trim()) as { argv: string[]; youngMb: number };
    expect(seen.argv).toEqual(EMBEDDED_NODE_FLAGS);
    expect(seen.youngMb).toBeLessThanOrEqual(32);
  });

  it("passes the program's exit code on", () => {
    const program = path.join(dir, 'fails.mjs');
    fs.writeFileSync(program, 'process.exit(7);');
    expect(runner(program, EMBEDDED_NODE_FLAGS).status).toBe(7);
  });
});
