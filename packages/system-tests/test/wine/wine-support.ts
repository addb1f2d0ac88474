import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import type {
  DeploymentJob,
  DeploymentJobDetail,
  StepLog,
  StepLogsResponse,
} from '@outpost/contract/deployments';
import type { UploadedFile } from '@outpost/contract/files';
import type { PackageDetail } from '@outpost/contract/packages';
import type { TestServer } from '@outpost/server/test-support';
import { devices } from '@outpost/server/db/schema';
import { eventually } from '@outpost/server/test-support';
import { KEEPALIVE_PRELOAD, patchVirtualAlloc2 } from './wine-harness';
import type { WinePrefix, WineProcess } from './wine-harness';

// The device side of the Windows suite: the executable built by the project's script, installed
// in the prefix with the test-only workarounds, and the portal calls the checks go through.

const exec = promisify(execFile);
export const repo = path.resolve(import.meta.dirname, '../../../..');
export const EXE = 'outpost-agent-win-x64.exe';

type Envelope<T> = { success: true; data: T };

/** `npm run build:agent-exe -- --platform win-x64` with a version of its own. */
export async function buildWindowsAgent(version: string, out: string): Promise<string> {
  await exec(
    'node',
    ['scripts/build-agent-exe.mjs', '--platform', 'win-x64', '--version', version, '--out', out],
    {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return path.join(out, EXE);
}

/** The device: C:\outpost holds the patched executable, its configuration and the preload. */
export function installInPrefix(wine: WinePrefix, built: string) {
  const home = path.join(wine.driveC, 'outpost');
  fs.mkdirSync(home, { recursive: true });
  const exe = path.join(home, EXE);
  patchVirtualAlloc2(built, exe);
  const preload = path.join(home, 'keepalive.cjs');
  fs.writeFileSync(preload, KEEPALIVE_PRELOAD);
  const config = path.join(home, 'config', 'agent.json');
  const baseEnv = { OUTPOST_AGENT_CONFIG: wine.winPath(config), OUTPOST_AGENT_DRY_RUN: '1' };
  const env = { ...baseEnv, NODE_OPTIONS: `--require ${wine.winPath(preload).replaceAll('\\', '/')}` };
  return { home, exe, winExe: wine.winPath(exe), config, env, baseEnv };
}

export function portal(server: TestServer, token: string) {
  const call = <T>(method: string, url: string, body?: unknown) =>
    server.request<Envelope<T>>(method, url, { token, body });

  async function upload(name: string, content: Buffer | string): Promise<UploadedFile> {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const res = await fetch(`${server.url}/api/customer/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return ((await res.json()) as Envelope<UploadedFile>).data;
  }

  async function device(deviceGuid: string) {
    const [row] = await server.database.db.select().from(devices).where(eq(devices.deviceGuid, deviceGuid));
    return row;
  }

  type Step = {
    step_name: string;
    step_type: string;
    step_details: Record<string, unknown>;
    [k: string]: unknown;
  };

  /** Creates a Windows package of these steps and deploys it to the device; the job's id. */
  async function start(deviceId: number, name: string, steps: Step[]): Promise<number> {
    const pkg = (
      await call<PackageDetail>('POST', '/api/customer/deployment-packages', { name, target_os: 'windows' })
    ).body.data;
    for (const s of steps) {
      const res = await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
        ...s,
        step_details: JSON.stringify(s.step_details),
      });
      if (res.status !== 200) {
        throw new Error(`step ${s.step_name}: ${JSON.stringify(res.body)}`);
      }
    }
    const created = await call<DeploymentJob>('POST', '/api/customer/deployments', {
      package_id: pkg.id,
      device_ids: [deviceId],
      job_name: name,
    });
    return created.body.data.id;
  }

  /** Deploys these steps to the device and waits for the job's end. */
  async function deploy(deviceId: number, name: string, steps: Step[], timeoutMs = 90_000) {
    return finished(await start(deviceId, name, steps), timeoutMs);
  }

  async function finished(id: number, timeoutMs = 90_000) {
    const job = await eventually(async () => {
      const d = (await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${id}`)).body.data;
      return ['failed', 'completed', 'cancelled'].includes(d.status) ? d : null;
    }, timeoutMs);
    return { job, logs: () => logsOf(job.deployments[0]!.id) };
  }

  async function logsOf(deviceDeploymentId: number): Promise<(name: string) => StepLog[]> {
    const logs = (
      await call<StepLogsResponse>(
        'GET',
        `/api/customer/deployments/device-deployment/${deviceDeploymentId}/logs`,
      )
    ).body.data.logs;
    return (name: string) => logs.filter((l) => l.step_name === name);
  }

  return { call, upload, device, start, deploy, finished, logsOf };
}

/** Waits until a started Windows program has written `text`. */
export function outputContains(proc: WineProcess, text: string, timeoutMs = 60_000) {
  return eventually(() => Promise.resolve(proc.output().includes(text) ? true : null), timeoutMs);
}
