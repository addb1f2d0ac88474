// Benchmark "agent": the device agent's footprint (docs/agent-windows.md, bench/RESULTS.md).
//
//   npm run bench -- agent                 # Linux executable, 10 minutes idle
//   npm run bench -- agent --quick         # 1 minute idle
//   options: --minutes N   --wine (also the Windows executable under Wine, for reference)
//
// Builds the single executable with the project's script as a release is built (--compress
// --strip), records its size and its compressed download sizes from the sidecar (Brotli: the
// self-update; xz -9: install.sh; gzip -9: install.ps1 on Windows PowerShell 5.1), enrols it against a real test server (PGlite), lets it
// connect and send its first inventory, then samples its resident memory (VmRSS) and CPU time
// (/proc/<pid>/stat utime+stime) every 5 s for --minutes. Idle CPU is the CPU time used after the
// first minute divided by the wall time. Targets: compressed download ≤ 25 MB, idle RSS ≤ 60 MB on
// Linux, idle CPU ≤ 0.2 % of a core. Written to bench/results/agent.json.
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { startTestServer } from '../packages/server/test/harness';
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

function sample(pid: number) {
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const cpuS = (Number(fields[11]) + Number(fields[12])) / TICK; // utime, stime
  return { at: Date.now(), rss, cpuS };
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
  const rss = settled.map((s) => s.rss).sort((a, b) => a - b);
  return {
    idle_rss_mb: rss[Math.floor(rss.length / 2)]!,
    max_rss_mb: Math.max(...samples.map((s) => s.rss)),
    idle_cpu_percent: ((last.cpuS - first.cpuS) / Math.max(1, (last.at - first.at) / 1000)) * 100,
  };
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
    },
  );
  return path.join(out, `outpost-agent-${platform}${platform.startsWith('win') ? '.exe' : ''}`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-bench-agent-'));
const server = await startTestServer();
const results: Record<string, unknown> = {};
try {
  await server.seedDemo();
  const admin = (await server.devSignIn('admin@acme.example')).token;
  const linuxExe = await build('linux-x64', path.join(work, 'linux'));
  const config = path.join(work, 'linux-config', 'agent.json');
  const env = { ...process.env, OUTPOST_AGENT_CONFIG: config, OUTPOST_AGENT_DRY_RUN: '1' };
  const token = (await createEnrollmentToken(server, admin)).token;
  await exec(linuxExe, ['enroll', '--server', server.url, '--token', token, '--no-external-ip'], { env });
  const agent = spawn(linuxExe, ['run'], { env, stdio: 'ignore' });
  console.error(`linux-x64: sampling for ${minutes} min`);
  results['linux-x64'] = { ...sizes(linuxExe), ...(await idle(() => agent.pid!)) };
  agent.kill('SIGTERM');

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
      results['win-x64 (Wine 8, reference)'] = { ...sizes(winExe), ...(await idle(pid)) };
      running.child.kill('SIGINT');
      await running.exited;
    } finally {
      wine.close();
    }
  }
} finally {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
}

const command = `npm run bench -- agent${values.quick ? ' --quick' : ''}${values.minutes ? ` --minutes ${minutes}` : ''}${values.wine ? ' --wine' : ''}`;
console.log(`\n${command} (${minutes} min idle)\n`);
console.log('| platform | size MB | br MB | gzip -9 MB | xz -9 MB | idle RSS MB | max RSS MB | idle CPU % |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [platform, r] of Object.entries(results) as [string, Record<string, number>][]) {
  const f = (k: string, d = 1) => r[k]!.toFixed(d);
  console.log(
    `| ${platform} | ${f('size_mb')} | ${f('br_mb')} | ${f('gzip_mb')} | ${f('xz_mb')} | ${f('idle_rss_mb')} | ${f('max_rss_mb')} | ${f('idle_cpu_percent', 3)} |`,
  );
}
console.log('\nTargets: compressed download ≤ 25 MB, idle RSS ≤ 60 MB (Linux), idle CPU ≤ 0.2 % of a core.');
writeResult('agent', { command, minutes, machine: machine(), results });
