// Benchmark "web": the weight of the web app and its Lighthouse scores.
//
//   npm run bench -- web            # 3 Lighthouse runs per page, the median
//   npm run bench -- web --quick    # 1 run per page
//   options: --runs N --postgres URL --runtime tsx|compiled --chrome /usr/bin/chromium
//            --no-lighthouse (sizes only) --lhr-dir DIR (keep the Lighthouse reports)
//
// 1. Builds the web app (vite build --manifest) into a temporary directory and reads Vite's
//    manifest: the initial JavaScript (the entry and everything it imports statically: what
//    index.html loads before the first screen) and, per lazy route, its own chunk and what opening
//    it adds (its chunk and the static imports not already loaded), all gzip -9. Chunk-size
//    warnings of the build (and chunks over Vite's default 500 kB limit) are reported.
// 2. Serves that build from the server (throwaway PostgreSQL database, the 25-device demo fleet)
//    and runs Lighthouse 12 (desktop settings) against /login, then — signed in with dev sign-in,
//    the session stored in the browser's localStorage as the app does — /dashboard and /devices,
//    driving /usr/bin/chromium headless through chrome-launcher (no puppeteer, no browser download).
// Writes bench/results/web.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import WebSocket from 'ws';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { createThrowawayDatabase } from '../packages/server/test/harness';
import { SESSION_SECRET, defaultPostgres, signIn, sleep, startServer } from './fleet-setup';
import { freePort, machine, repoRoot, writeResult } from './lib';
import { STATIC_ROUTES } from './web-routes';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    postgres: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
    chrome: { type: 'string', default: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
    'no-lighthouse': { type: 'boolean', default: false },
    // keep each Lighthouse report (JSON) there, to read what limits a score
    'lhr-dir': { type: 'string' },
    // the signed-in pages audited, in this order ('all': every route without an id, as e2e/specs/a11y/routes.ts lists them)
    pages: { type: 'string' },
    // Lighthouse's mobile settings (its default: a phone, simulated slow 4G, 4x CPU) instead of
    // desktop; writes bench/results/web-mobile.json
    mobile: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const RUNS = Number(values.runs ?? (quick ? 1 : 3));
const log = (line: string) => console.error(`[web] ${line}`);
const kib = (bytes: number) => Number((bytes / 1024).toFixed(2));
const TARGET = { initial_kib: 150, route_kib: 50, performance: 95, accessibility: 95 };

// ---- 1. build and sizes
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-web-'));
log(`vite build --manifest → ${outDir}`);
const build = spawnSync(
  process.execPath,
  [
    path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
    'build',
    '--manifest',
    '--outDir',
    outDir,
    '--emptyOutDir',
  ],
  { cwd: path.join(repoRoot, 'packages/web'), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
);
if (build.status !== 0) {
  console.error(build.stdout, build.stderr);
  throw new Error('the web build failed');
}
const buildOutput = `${build.stdout}\n${build.stderr}`;
const buildWarnings = buildOutput
  .split('\n')
  .filter((l) => /chunks are larger|larger than|\(!\)/i.test(l))
  .map((l) => l.trim());

type ManifestEntry = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestEntry
>;
const sizes = new Map<string, { raw: number; gz: number }>();
const sizeOf = (file: string) => {
  let s = sizes.get(file);
  if (!s) {
    const body = fs.readFileSync(path.join(outDir, file));
    s = { raw: body.length, gz: gzipSync(body, { level: 9 }).length };
    sizes.set(file, s);
  }
  return s;
};
/** the JS files a chunk loads statically (itself included) */
const closure = (key: string, into = new Set<string>()) => {
  const e = manifest[key];
  if (!e || into.has(e.file)) {
    return into;
  }
  into.add(e.file);
  for (const i of e.imports ?? []) {
    closure(i, into);
  }
  return into;
};
const sum = (files: Iterable<string>) => {
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    if (f.endsWith('.js')) {
      raw += sizeOf(f).raw;
      gz += sizeOf(f).gz;
    }
  }
  return { raw, gz };
};
const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) {
  throw new Error('no entry in the Vite manifest');
}
const initialFiles = closure(entryKey);
const initial = sum(initialFiles);
const routes = Object.entries(manifest)
  .filter(([, e]) => e.isDynamicEntry)
  .map(([key, e]) => {
    const own = sizeOf(e.file);
    const adds = [...closure(key)].filter((f) => !initialFiles.has(f));
    const added = sum(adds);
    return {
      chunk: key,
      file: e.file,
      own_gz_kib: kib(own.gz),
      own_raw_kib: kib(own.raw),
      adds_gz_kib: kib(added.gz),
      over_target: own.gz / 1024 > TARGET.route_kib,
    };
  })
  .sort((a, b) => b.own_gz_kib - a.own_gz_kib);
const largestChunkKib = Math.max(
  ...[...new Set(Object.values(manifest).map((e) => e.file))]
    .filter((f) => f.endsWith('.js'))
    .map((f) => sizeOf(f).raw / 1024),
);
const sizeResult = {
  initial_gz_kib: kib(initial.gz),
  initial_raw_kib: kib(initial.raw),
  initial_files: [...initialFiles],
  routes,
  build_warnings: buildWarnings,
  largest_chunk_raw_kib: Number(largestChunkKib.toFixed(1)),
  over_vite_default_limit: largestChunkKib > 500,
};
log(
  `initial JS ${sizeResult.initial_gz_kib} KiB gz; largest route chunk ${routes[0]?.own_gz_kib} KiB gz (${routes[0]?.chunk})`,
);

// ---- 2. Lighthouse
type Scores = {
  performance: number;
  accessibility: number;
  'best-practices': number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
};
const pages: Record<string, Scores & { runs: Scores[] }> = {};
if (!values['no-lighthouse']) {
  const throwaway = await createThrowawayDatabase(values.postgres ?? defaultPostgres());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-web-data-'));
  const port = await freePort();
  const server = await startServer(values.runtime, {
    DATABASE_URL: throwaway.url,
    SESSION_SECRET,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    OUTPOST_DEMO: '1',
    OUTPOST_ALLOW_DEV_LOGIN: '1',
    WEB_DIST_DIR: outDir,
  });
  const base = `http://127.0.0.1:${port}`;
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  try {
    // the demo fleet online, so the dashboard and the list show it
    for (let i = 0; i < 240 && !/demo: \d+ simulated devices connected/.test(server.output()); i++) {
      await sleep(500);
    }
    chrome = await chromeLauncher.launch({
      chromePath: values.chrome,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const audit = async (pathname: string, keepStorage: boolean) => {
      const runs: Scores[] = [];
      let attempt = 0;
      for (let r = 0; r < RUNS; r++) {
        const result = await lighthouse(
          base + pathname,
          {
            port: chrome!.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices'],
            disableStorageReset: keepStorage,
          },
          values.mobile ? undefined : desktopConfig,
        );
        const lhr = result!.lhr;
        if (lhr.runtimeError && attempt < 2) {
          // Lighthouse asks for it ("Please run Lighthouse again"): a trace lost on a busy machine
          log(`${pathname}: ${lhr.runtimeError.code}; running it again`);
          attempt++;
          r--;
          continue;
        }
        if (values['lhr-dir']) {
          fs.mkdirSync(values['lhr-dir'], { recursive: true });
          fs.writeFileSync(
            path.join(values['lhr-dir'], `${pathname.slice(1).replaceAll('/', '_')}-${r + 1}.json`),
            JSON.stringify(lhr),
          );
        }
        if (lhr.finalDisplayedUrl && !lhr.finalDisplayedUrl.includes(pathname)) {
          throw new Error(`${pathname} ended on ${lhr.finalDisplayedUrl}: not signed in?`);
        }
        const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
        runs.push({
          performance: score('performance'),
          accessibility: score('accessibility'),
          'best-practices': score('best-practices'),
          lcp_ms: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
          tbt_ms: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
          cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
        });
        const failing = Object.values(lhr.audits)
          .filter(
            (a) => a.score !== null && a.score < 1 && ['binary', 'numeric'].includes(a.scoreDisplayMode),
          )
          .filter((a) => lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === a.id))
          .map((a) => a.id);
        if (failing.length > 0) {
          log(`${pathname}: accessibility audits not passed: ${failing.join(', ')}`);
        }
      }
      const median = (k: keyof Scores) =>
        [...runs.map((x) => x[k])].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
      pages[pathname] = {
        performance: median('performance'),
        accessibility: median('accessibility'),
        'best-practices': median('best-practices'),
        lcp_ms: median('lcp_ms'),
        tbt_ms: median('tbt_ms'),
        cls: median('cls'),
        runs,
      };
      log(
        `${pathname}: performance ${pages[pathname].performance}, accessibility ${pages[pathname].accessibility}, best practices ${pages[pathname]['best-practices']}`,
      );
    };
    await audit('/login', false);
    // sign in the way the app does: the session token in localStorage, set on the app's origin
    const session = await signIn(base, 'admin@acme.example');
    await storeToken(chrome.port, base, session.token);
    const pageList =
      values.pages === 'all' ? STATIC_ROUTES : (values.pages ?? '/dashboard,/devices').split(',');
    for (const p of pageList) {
      await audit(p, true);
    }
  } finally {
    chrome?.kill();
    await server.stop();
    await throwaway.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
fs.rmSync(outDir, { recursive: true, force: true });

const result = {
  quick,
  runs: RUNS,
  sizes: sizeResult,
  lighthouse: pages,
  targets: TARGET,
  machine: machine(),
};
const file = writeResult(values.mobile ? 'web-mobile' : 'web', { ...result, mobile: values.mobile });
console.log(
  `\nweb${quick ? ' --quick' : ''}: production build, gzip -9, Node ${process.version}, load average ${result.machine.load_average.join(' ')}\n`,
);
console.log(
  `initial JavaScript: ${sizeResult.initial_gz_kib} KiB gzipped (${sizeResult.initial_raw_kib} KiB raw; target ≤ ${TARGET.initial_kib})`,
);
console.log(
  `build warnings: ${buildWarnings.length === 0 ? 'none' : buildWarnings.join(' / ')}; largest chunk ${sizeResult.largest_chunk_raw_kib} KiB raw\n`,
);
console.log('| lazy chunk | own, gz KiB | opening it adds, gz KiB |');
console.log('|---|---:|---:|');
for (const r of routes) {
  console.log(
    `| ${r.chunk.replace(/^src\//, '')} | ${r.own_gz_kib}${r.over_target ? ' (over 50)' : ''} | ${r.adds_gz_kib} |`,
  );
}
if (Object.keys(pages).length > 0) {
  console.log(
    `\nLighthouse 12, ${values.mobile ? 'mobile' : 'desktop'} settings, median of ${RUNS} run(s)\n`,
  );
  console.log('| page | performance | accessibility | best practices | LCP ms | TBT ms | CLS |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [p, s] of Object.entries(pages)) {
    console.log(
      `| ${p} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.lcp_ms} | ${s.tbt_ms} | ${s.cls} |`,
    );
  }
}
console.log(`\nwritten to ${file}`);

/** Opens the app in a tab through the DevTools protocol and stores the session token. */
async function storeToken(port: number, origin: string, token: string) {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const ws = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: unknown;
        };
        if (m.id === id) {
          ws.off('message', onMessage);
          if (m.error) {
            reject(new Error(`${method}: ${JSON.stringify(m.error)}`));
          } else {
            resolve(m.result ?? {});
          }
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }));
    });
  const { targetId } = (await send('Target.createTarget', { url: `${origin}/login` })) as {
    targetId: string;
  };
  const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as {
    sessionId: string;
  };
  // the page's context exists once the document has started loading: ask until it answers
  const evaluate = async (expression: string) => {
    for (let i = 0; ; i++) {
      try {
        const r = (await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as {
          result: { value: unknown };
        };
        return r.result.value;
      } catch (err) {
        if (i >= 50) {
          throw err;
        }
        await sleep(200);
      }
    }
  };
  for (let i = 0; i < 50 && (await evaluate('location.origin')) !== origin; i++) {
    await sleep(200);
  }
  await evaluate(`localStorage.setItem(${JSON.stringify(STORAGE_KEYS.token)}, ${JSON.stringify(token)})`);
  await send('Target.closeTarget', { targetId });
  ws.close();
}
