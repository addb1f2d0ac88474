// npm run build -w @outpost/agent: dist/main.js (the device agent) and dist/sim/main.js (the
// fleet simulator), each one file that imports only its npm dependencies.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleNode } from '../../scripts/bundle-node.mjs';

await bundleNode({
  packageDir: path.dirname(fileURLToPath(import.meta.url)),
  entryPoints: { main: 'src/main.ts', 'sim/main': 'src/sim/main.ts' },
});
