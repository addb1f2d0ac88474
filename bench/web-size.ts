// Initial JavaScript of the web app: the entry script plus the modules index.html preloads,
// gzipped, as a browser fetches them before the first screen (sign-in or dashboard) can render.
//
//   npm run build -w @outpost/web && npx tsx bench/web-size.ts [--dist packages/web/dist]
//
// Prints one line per file and the total in KiB (1 KiB = 1024 bytes).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values } = parseArgs({
  options: { dist: { type: 'string', default: path.join(import.meta.dirname, '../packages/web/dist') } },
});
const dist = path.resolve(values.dist);
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');

const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
const files = [...new Set([...entries, ...preloads])].filter((f): f is string => Boolean(f));
if (files.length === 0) {
  throw new Error(`no module script in ${path.join(dist, 'index.html')}: build the web app first`);
}

const kib = (bytes: number) => (bytes / 1024).toFixed(2);
let raw = 0;
let gzipped = 0;
for (const file of files) {
  const body = fs.readFileSync(path.join(dist, file.replace(/^\//, '')));
  const gz = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gzipped += gz;
  console.log(`${file.padEnd(44)} ${kib(body.length).padStart(9)} KiB  gzip ${kib(gz).padStart(8)} KiB`);
}
console.log(
  `${'initial JavaScript'.padEnd(44)} ${kib(raw).padStart(9)} KiB  gzip ${kib(gzipped).padStart(8)} KiB`,
);
