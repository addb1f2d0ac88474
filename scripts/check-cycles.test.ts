import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCycles, importGraph, sourceFiles } from './check-cycles.mjs';

// The cycle check of `npm run lint`: these cases prove it fires, type-only imports included.
const dirs: string[] = [];

function project(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const isFile = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  const graph = importGraph(sourceFiles(dir), (file) => fs.readFileSync(file, 'utf8'), isFile);
  return findCycles(graph).map((cycle) => cycle.map((file) => path.relative(dir, file)));
}

afterEach(() => {
  for (const dir of dirs.splice(0)) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the import cycle check', () => {
  it('finds a cycle of value imports, with the files in import order', () => {
    const cycles = project({
      'fleet.ts':
        "import { shape } from './variety';\nexport type Agent = { id: number };\nexport const start = shape;\n",
      'variety.ts': "import { start } from './fleet';\nexport const shape = () => start;\n",
    });
    expect(cycles).toEqual([['fleet.ts', 'variety.ts', 'fleet.ts']]);
  });

  it('finds a cycle made only of type imports, across folders and through index files', () => {
    const cycles = project({
      'lib/scope.ts': "import type { Context } from '../plugins/auth';\nexport type Scope = Context;\n",
      'plugins/auth/index.ts':
        "import type { Row } from '../../modules/auth.queries';\nexport type Context = Row;\n",
      'modules/auth.queries.ts': "import { type Scope } from '../lib/scope.js';\nexport type Row = Scope;\n",
    });
    expect(cycles).toEqual([
      ['lib/scope.ts', 'plugins/auth/index.ts', 'modules/auth.queries.ts', 'lib/scope.ts'],
    ]);
  });

  it('finds a cycle through a re-export and a dynamic import', () => {
    const cycles = project({
      'a.ts': "export * from './b';\n",
      'b.tsx': "export const load = () => import('./a');\n",
    });
    expect(cycles).toEqual([['a.ts', 'b.tsx', 'a.ts']]);
  });

  it('passes imports that flow one way, and package imports', () => {
    const cycles = project({
      'simulated-agent.ts': 'export type Agent = { id: number };\n',
      'fleet.ts':
        "import type { Agent } from './simulated-agent';\nimport { shape } from './variety';\nexport const start = (a: Agent) => shape(a);\n",
      'variety.ts':
        "import type { Agent } from './simulated-agent';\nimport { z } from 'zod';\nexport const shape = (a: Agent) => z.literal(a.id);\n",
    });
    expect(cycles).toEqual([]);
  });
});
