// Benchmark "agent": the device agent's footprint (docs/agent-windows.md, bench/RESULTS.md).
//
//   npm run bench -- agent                 # Linux executable, 10 minutes idle
//   npm run bench -- agent --quick         # 1 minute idle
//   options: --minutes N   --wine (also the Windows executable under Wine, for reference)
//            --exec-argv="FLAGS" (the V8/Node flags baked into the executable instead of the
//            build's own, "" for none: how the levers of docs/agent.md "Footprint" were compared)
//            --exe PATH (measure this Linux executable instead of building one)
//            --no-size (leave out the compressed sizes: xz -9 of the executable takes minutes)
//
// Builds the single executable with the project's script as a release is built (--compress
// --strip), records its size and its compressed download sizes from the sidecar (Brotli: the
// self-update; xz -9: install.sh; gzip -9: install.ps1 on Windows PowerShell 5.1), enrols it against a real test server (PGlite), lets it
// connect and send its first inventory, then samples its resident memory (VmRSS) and CPU time
// (/proc/<pid>/stat utime+stime, and cutime+cstime: the probes it runs count as its own) every 5 s
// for --minutes. Idle CPU is the CPU time used after the first minute divided by the wall time
// (CPU time, not wall time: the figure does not depend on the machine's load, which is recorded). Targets: compressed download ≤ 25 MB, idle RSS ≤ 60 MB on
// Linux, idle CPU ≤ 0.2 % of a core. Written to bench/results/agent.json.
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { startTestServer } from '../packages/server/test/harness';
import type { TestServer } from '../packages/server/test/harness';
import { devices } from '../packages/server/src/db/schema/index';
import { createEnrollmentToken } from '../packages/server/test/support/live';
import { createWinePrefix } from '../packages/system-tests/test/wine/wine-harness';
import { installInPrefix } from '../packages/system-tests/test/wine/wine-support';
import { machine, repoRoot, writeResult } from './lib';

const exec = promisify(execFile);
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    wine: { type: 'boolean', default: false },
    'exec-argv': { type: 'string' },
    exe: { type: 'string' },
    'no-size': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes ?? (values.quick ? 1 : 10));
const MB = 1024 * 1024;
const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sizes(file: string) {
  const sidecar = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as {
    size: number;
    compressed?: Record<string, { size: number }>;
  };
  const packed = (encoding: string) => (sidecar.compressed?.[encoding]?.size ?? NaN) / MB;
  return { size_mb: sidecar.size / MB, br_mb: packed('br'), gzip_mb: packed('gz'), xz_mb: packed('xz') };
}

const noSizes = { size_mb: NaN, br_mb: NaN, gzip_mb: NaN, xz_mb: NaN };

function sample(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  // the process's own memory, without the pages of the executable file it maps (RssFile)
  const anon = Number(/RssAnon:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const cpuS = (Number(fields[11]) + Number(fields[12])) / TICK; // utime, stime
  const childrenS = (Number(fields[13]) + Number(fields[14])) / TICK; // cutime, cstime
  return { at: Date.now(), rss, anon, cpuS: cpuS + childrenS, ownS: cpuS };
}

/** Samples a process every 5 s for `minutes`; the idle figures leave out the first minute. */
async function idle(pid: () => number) {
  const samples: ReturnType<typeof sample>[] = [];
  const end = Date.now() + minutes * 60_000;
  while (Date.now() < end) {
    samples.push(sample(pid()));
    await sleep(5000);
  }
  samples.push(sample(pid()));
  const settled = samples.filter((s) => s.at >= samples[0]!.at + Math.min(60_000, (minutes * 60_000) / 2));
  const first = settled[0]!;
  const last = settled.at(-1)!;
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const seconds = Math.max(1, (last.at - first.at) / 1000);
  return {
    idle_rss_mb: median(settled.map((s) => s.rss)),
    idle_rss_anon_mb: median(settled.map((s) => s.anon)),
    max_rss_mb: Math.max(...samples.map((s) => s.rss)),
    idle_cpu_percent: ((last.cpuS - first.cpuS) / seconds) * 100,
    /** the agent's process alone, without the probes (child processes) it ran */
    idle_cpu_own_percent: ((last.ownS - first.ownS) / seconds) * 100,
  };
}

/** Resolves once the server holds the device's first inventory (the agent is enrolled and online). */
async function firstInventory(server: TestServer, configFile: string) {
  const { deviceGuid } = JSON.parse(fs.readFileSync(configFile, 'utf8')) as { deviceGuid: string };
  const end = Date.now() + 180_000;
  while (Date.now() < end) {
    const [row] = await server.database.db
      .select({ at: devices.lastInventoryUpdate, status: devices.status })
      .from(devices)
      .where(eq(devices.deviceGuid, deviceGuid));
    if (row?.at && row.status === 'online') {
      return;
    }
    await sleep(1000);
  }
  throw new Error('the agent sent no inventory in 3 minutes');
}

async function build(platform: string, out: string) {
  await exec(
    'node',
    ['scripts/build-agent-exe.mjs', '--platform', platform, '--version', '0.0.0-bench', '--out', out].concat([
      '--compress',
      '--strip',
    ]),
    {
      cwd: repoRoot,
      maxBuffer: 16 * MB,
      env:
        values['exec-argv'] === undefined
          ? process.env
          : { ...process.env, OUTPOST_AGENT_EXEC_ARGV: values['exec-argv'] },
    },
  );
  return path.join(out, `outpost-agent-${platform}${platform.startsWith('win') ? '.exe' : ''}`);
}

/**
 * The executable as an installer leaves it: written in 64 KiB pieces (install.sh's `xz -d`, the
 * self-update's download). The build's copy was written by postject in one piece, which the
 * kernel keeps in large page-cache folios that a process then maps whole: the same executable
 * idles about 16 MB higher from the build's copy than from an installed one (docs/agent.md#footprint).
 */
async function installCopy(exe: string, dir: string): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, path.basename(exe));
  await pipeline(
    fs.createReadStream(exe, { highWaterMark: 64 * 1024 }),
    fs.createWriteStream(target, { mode: 0o755 }),
  );
  return target;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-agent-'));
const server = await startTestServer();
const results: Record<string, unknown> = {};
const load = (): number[] => os.loadavg().map((l) => Math.round(l * 100) / 100);
const loadBefore = load();
try {
  await server.seedDemo();
  const admin = (await server.devSignIn('admin@acme.example')).token;
  const builtExe = values.exe ? path.resolve(values.exe) : await build('linux-x64', path.join(work, 'linux'));
  const linuxExe = await installCopy(builtExe, path.join(work, 'installed'));
  const config = path.join(work, 'linux-config', 'agent.json');
  const env = { ...process.env, OUTPOST_AGENT_CONFIG: config, OUTPOST_AGENT_DRY_RUN: '1' };
  const token = (await createEnrollmentToken(server, admin)).token;
  await exec(linuxExe, ['enroll', '--server', server.url, '--token', token, '--no-external-ip'], { env });
  const agent = spawn(linuxExe, ['run'], { env, stdio: 'ignore' });
  await firstInventory(server, config);
  console.error(`linux-x64: online with its first inventory; sampling for ${minutes} min`);
  const linuxIdle = await idle(() => agent.pid!);
  agent.kill('SIGTERM');
  // after the sampling: xz blocks this process, and the server the agent is connected to with it
  results['linux-x64'] = { ...(values['no-size'] ? noSizes : sizes(builtExe)), ...linuxIdle };

  if (values.wine) {
    const wine = createWinePrefix();
    try {
      const winExe = await build('win-x64', path.join(work, 'win'));
      const device = installInPrefix(wine, winExe);
      const winToken = (await createEnrollmentToken(server, admin)).token;
      await wine.run(
        [device.winExe, 'enroll', '--server', server.url, '--token', winToken, '--no-external-ip'],
        {
          env: device.env,
        },
      );
      const running = wine.start([device.winExe, 'run'], { env: device.env });
      await sleep(5000);
      // the Windows process is a wine-preloader process whose command line names the executable
      const pid = () =>
        Number(
          execFileSync('pgrep', ['-f', '-n', 'outpost-agent-win-x64.exe run'], { encoding: 'utf8' }).trim(),
        );
      console.error(`win-x64 under Wine: sampling for ${minutes} min`);
      const winIdle = await idle(pid);
      running.child.kill('SIGINT');
      await running.exited;
      results['win-x64 (Wine 8, reference)'] = {
        ...(values['no-size'] ? noSizes : sizes(winExe)),
        ...winIdle,
      };
    } finally {
      wine.close();
    }
  }
} finally {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
}

const loadAfter = load();
const execArgv = values['exec-argv'] === undefined ? '' : ` --exec-argv="${values['exec-argv']}"`;
const command = `npm run bench -- agent${values.quick ? ' --quick' : ''}${values.minutes ? ` --minutes ${minutes}` : ''}${values.wine ? ' --wine' : ''}${execArgv}${values.exe ? ` --exe ${values.exe}` : ''}${values['no-size'] ? ' --no-size' : ''}`;
console.log(`\n${command} (${minutes} min idle)\n`);
console.log(
  `load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')} (${os.cpus().length} cores)\n`,
);
console.log(
  '| platform | size MB | br MB | gzip -9 MB | xz -9 MB | idle RSS MB | of it anonymous MB | max RSS MB | idle CPU % | of it the agent alone % |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [platform, r] of Object.entries(results) as [string, Record<string, number>][]) {
  const f = (k: string, d = 1) => r[k]!.toFixed(d);
  console.log(
    `| ${platform} | ${f('size_mb')} | ${f('br_mb')} | ${f('gzip_mb')} | ${f('xz_mb')} | ${f('idle_rss_mb')} | ${f('idle_rss_anon_mb')} | ${f('max_rss_mb')} | ${f('idle_cpu_percent', 3)} | ${f('idle_cpu_own_percent', 3)} |`,
  );
}
console.log('\nTargets: compressed download ≤ 25 MB, idle RSS ≤ 60 MB (Linux), idle CPU ≤ 0.2 % of a core.');
writeResult('agent', {
  command,
  minutes,
  machine: machine(),
  load: { before: loadBefore, after: loadAfter },
  results,
});
