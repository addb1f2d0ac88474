import { eq } from 'drizzle-orm';
import type {
  DeploymentJob,
  DeploymentJobDetail,
  StepLog,
  StepLogsResponse,
} from '@outpost/contract/deployments';
import type { UploadedFile } from '@outpost/contract/files';
import type { PackageDetail } from '@outpost/contract/packages';
import { devices } from '@outpost/server/db/schema';
import { eventually } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';

// The portal's REST API as the system tests drive it, signed in with `token`: upload a file,
// build a package of steps for `targetOs`, deploy it to one device and wait for the job's end,
// read the step logs. Shared by the agent's system tests and the Windows suite under Wine.

type Envelope<T> = { success: true; data: T };

export type StepInput = {
  step_name: string;
  step_type: string;
  step_details: Record<string, unknown>;
  [k: string]: unknown;
};

export type Portal = ReturnType<typeof portal>;

export function portal(server: TestServer, token: string, targetOs: 'linux' | 'windows') {
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

  /** Creates a package of these steps and deploys it to the device; the job's id. */
  async function start(deviceId: number, name: string, steps: StepInput[]): Promise<number> {
    const pkg = (
      await call<PackageDetail>('POST', '/api/customer/deployment-packages', { name, target_os: targetOs })
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
    if (created.status !== 200) {
      throw new Error(`deployment ${name}: ${JSON.stringify(created.body)}`);
    }
    return created.body.data.id;
  }

  /** Deploys these steps to the device and waits for the job's end. */
  async function deploy(deviceId: number, name: string, steps: StepInput[], timeoutMs = 90_000) {
    return finished(await start(deviceId, name, steps), timeoutMs);
  }

  /** Waits until the job has ended (failed, completed or cancelled). */
  async function finished(id: number, timeoutMs = 90_000) {
    const job = await eventually(async () => {
      const d = (await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${id}`)).body.data;
      return ['failed', 'completed', 'cancelled'].includes(d.status) ? d : null;
    }, timeoutMs);
    return { job, logs: () => logsOf(job.deployments[0]!.id) };
  }

  /** The step logs of a device's deployment, by step name. */
  async function logsOf(deviceDeploymentId: number): Promise<(name: string) => StepLog[]> {
    const logs = await allLogsOf(deviceDeploymentId);
    return (name: string) => logs.filter((l) => l.step_name === name);
  }

  async function allLogsOf(deviceDeploymentId: number): Promise<StepLog[]> {
    return (
      await call<StepLogsResponse>(
        'GET',
        `/api/customer/deployments/device-deployment/${deviceDeploymentId}/logs`,
      )
    ).body.data.logs;
  }

  return { call, upload, device, start, deploy, finished, logsOf, allLogsOf };
}
