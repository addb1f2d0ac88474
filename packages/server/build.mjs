// npm run build -w @outpost/server: dist/main.js (the server), dist/cli.js (the admin CLI) and
// dist/migrations (the SQL the server applies at start). See docs/development.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleNode, staticClosure } from '../../scripts/bundle-node.mjs';

const packageDir = path.dirname(fileURLToPath(import.meta.url));
const metafile = await bundleNode({
  packageDir,
  entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts' },
  // The demo fleet loads the simulator with import(): splitting keeps it in its own chunk.
  splitting: true,
});
// db/client.ts finds the migrations beside the code that runs it (src/db/ or dist/).
fs.cpSync(path.join(packageDir, 'src/db/migrations'), path.join(packageDir, 'dist/migrations'), {
  recursive: true,
});

// A production server never loads the simulator unless the demo fleet runs.
const loadedAtStart = staticClosure(metafile, packageDir, 'dist/main.js');
const simulatorAtStart = loadedAtStart.filter((output) =>
  Object.keys(metafile.outputs[output]?.inputs ?? {}).some((input) => input.includes('agent/src/')),
);
if (simulatorAtStart.length > 0) {
  throw new Error(`the server loads agent code at start (${simulatorAtStart.join(', ')}); import it lazily`);
}
