import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DeviceActionType, ServiceAction } from '@outpost/contract/devices';

// Device actions and service control (spec: core §3 Device action, §4 Service control) behind one
// interface, so tests and the simulator record what would have happened and never touch the host.

export type Executor = {
  deviceAction(action: DeviceActionType): Promise<void>;
  /** returns the service's status afterwards */
  serviceControl(serviceName: string, action: ServiceAction): Promise<{ status: string }>;
};

export type RecordedCall =
  | { kind: 'device_action'; action: DeviceActionType }
  | { kind: 'service_control'; serviceName: string; action: ServiceAction };

/** Records calls; optionally applies service changes to a state the simulator keeps. */
export class RecordingExecutor implements Executor {
  readonly calls: RecordedCall[] = [];
  constructor(private readonly onService?: (serviceName: string, action: ServiceAction) => string) {}

  async deviceAction(action: DeviceActionType) {
    this.calls.push({ kind: 'device_action', action });
  }

  async serviceControl(serviceName: string, action: ServiceAction) {
    this.calls.push({ kind: 'service_control', serviceName, action });
    const status = this.onService?.(serviceName, action) ?? (action === 'stop' ? 'Stopped' : 'Running');
    return { status };
  }
}

/** Runs a program with arguments (no shell); the real one is execFile. */
export type Runner = (file: string, args: string[]) => Promise<{ stdout: string }>;
const execFileRunner: Runner = promisify(execFile);

/** True under a test runner or when OUTPOST_AGENT_DRY_RUN is set: the host is never changed then. */
export const isDryRun = () =>
  Boolean(process.env.VITEST || process.env.OUTPOST_AGENT_DRY_RUN || process.env.NODE_ENV === 'test');

/**
 * The real thing: restarts, shuts down and controls services of this machine. It refuses to act
 * under tests (isDryRun), whatever the caller asked.
 */
export class SystemExecutor implements Executor {
  private readonly run: Runner;

  /** `runner` is for tests of the commands built: a recording runner never reaches the host. */
  constructor(
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly runner?: Runner,
  ) {
    this.run = runner ?? execFileRunner;
  }

  private guard() {
    if (!this.runner && isDryRun()) {
      throw new Error('SystemExecutor refused: dry run (tests or OUTPOST_AGENT_DRY_RUN)');
    }
  }

  async deviceAction(action: DeviceActionType) {
    this.guard();
    const reboot = action === 'restart';
    if (this.platform === 'win32') {
      await this.run('shutdown.exe', [
        reboot ? '/r' : '/s',
        '/t',
        '30',
        '/c',
        'Outpost: requested by an administrator',
      ]);
    } else {
      await this.run('shutdown', [reboot ? '-r' : '-h', '+1', 'Outpost: requested by an administrator']);
    }
  }

  async serviceControl(serviceName: string, action: ServiceAction) {
    this.guard();
    if (!/^[A-Za-z0-9_.@:-]{1,255}$/.test(serviceName)) {
      throw new Error(`Invalid service name: ${serviceName}`);
    }
    if (this.platform === 'win32') {
      const verb = { start: 'Start-Service', stop: 'Stop-Service', restart: 'Restart-Service' }[action];
      await this.run('powershell.exe', ['-NoProfile', '-Command', `${verb} -Name '${serviceName}' -Force`]);
      const { stdout } = await this.run('powershell.exe', [
        '-NoProfile',
        '-Command',
        `(Get-Service -Name '${serviceName}').Status`,
      ]);
      return { status: stdout.trim() || 'Unknown' };
    }
    if (this.platform === 'darwin') {
      const target = `system/${serviceName}`;
      const args = {
        start: ['kickstart', target],
        stop: ['kill', 'TERM', target],
        restart: ['kickstart', '-k', target],
      }[action];
      await this.run('launchctl', args);
      return { status: action === 'stop' ? 'Stopped' : 'Running' };
    }
    await this.run('systemctl', [action, serviceName]);
    const { stdout } = await this.run('systemctl', ['is-active', serviceName]).catch(
      (e: { stdout?: string }) => ({
        stdout: e.stdout ?? '',
      }),
    );
    return { status: stdout.trim() === 'active' ? 'Running' : 'Stopped' };
  }
}
