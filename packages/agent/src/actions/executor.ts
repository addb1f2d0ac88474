import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DeviceActionType, ServiceAction } from '@outpost/contract/devices';

// Device actions and service control (docs/product/devices.md#device-fields, #services) behind one
// interface, so tests and the simulator record what would have happened and never touch the host.

export type Executor = {
  deviceAction(action: DeviceActionType): Promise<void>;
  /** returns the service's status afterwards */
  serviceControl(serviceName: string, action: ServiceAction): Promise<{ status: string }>;
  /**
   * Windows: limits a folder of the agent's own to SYSTEM and Administrators (icacls, inheritance
   * removed); elsewhere nothing (the folder is 0700). SECURITY.md "The agent's file-handling rules".
   */
  secureFolder(dir: string): Promise<void>;
};

export type RecordedCall =
  | { kind: 'device_action'; action: DeviceActionType }
  | { kind: 'service_control'; serviceName: string; action: ServiceAction }
  | { kind: 'secure_folder'; dir: string };

/** Records calls; optionally applies service changes to a state the simulator keeps. */
export class RecordingExecutor implements Executor {
  readonly calls: RecordedCall[] = [];
  constructor(private readonly onService?: (serviceName: string, action: ServiceAction) => string) {}

  deviceAction(action: DeviceActionType) {
    this.calls.push({ kind: 'device_action', action });
    return Promise.resolve();
  }

  serviceControl(serviceName: string, action: ServiceAction) {
    this.calls.push({ kind: 'service_control', serviceName, action });
    const status = this.onService?.(serviceName, action) ?? (action === 'stop' ? 'Stopped' : 'Running');
    return Promise.resolve({ status });
  }

  secureFolder(dir: string) {
    this.calls.push({ kind: 'secure_folder', dir });
    return Promise.resolve();
  }
}

/** SYSTEM and BUILTIN\Administrators by SID, so the grant works in every display language. */
export const WINDOWS_FOLDER_GRANTS = ['*S-1-5-18:(OI)(CI)F', '*S-1-5-32-544:(OI)(CI)F'] as const;

/** icacls arguments that leave only SYSTEM and Administrators on a folder and what it holds. */
export function secureFolderArgs(dir: string): string[] {
  return [dir, '/inheritance:r', '/grant:r', ...WINDOWS_FOLDER_GRANTS, '/setowner', '*S-1-5-32-544'];
}

/**
 * Service names the agent will act on, per platform: a conservative character set, never a
 * leading "-" (it would read as an option), never a quote (Windows), a slash (a launchd domain)
 * or whitespace other than inner spaces on Windows. A name outside the set is refused before any
 * program runs; such services cannot be controlled from the portal.
 */
const SERVICE_NAME_PATTERNS: Record<'win32' | 'darwin' | 'other', RegExp> = {
  // Windows service key names: letters, digits, _ . - $ @ and inner spaces (e.g. MSSQL$SQLEXPRESS).
  win32: /^[A-Za-z0-9_$][A-Za-z0-9_.$@ -]{0,254}$/,
  // launchd labels are reverse-DNS names (com.example.agent).
  darwin: /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/,
  // systemd unit names: letters, digits, : _ . @ - and \ escapes (getty@tty1.service).
  other: /^[A-Za-z0-9_][A-Za-z0-9_.@:\\-]{0,254}$/,
};

export function isValidServiceName(platform: NodeJS.Platform, serviceName: string): boolean {
  const pattern =
    platform === 'win32' || platform === 'darwin'
      ? SERVICE_NAME_PATTERNS[platform]
      : SERVICE_NAME_PATTERNS.other;
  return pattern.test(serviceName) && !serviceName.endsWith(' ');
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

  async secureFolder(dir: string) {
    if (this.platform !== 'win32') {
      return;
    }
    this.guard();
    await this.run('icacls.exe', secureFolderArgs(dir));
  }

  async serviceControl(serviceName: string, action: ServiceAction) {
    this.guard();
    if (!isValidServiceName(this.platform, serviceName)) {
      throw new Error(`Invalid service name: ${JSON.stringify(serviceName)}`);
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
      // The target always starts with "system/", so it can never read as an option; launchctl's
      // subcommands take no `--`.
      const target = `system/${serviceName}`;
      const args = {
        start: ['kickstart', target],
        stop: ['kill', 'TERM', target],
        restart: ['kickstart', '-k', target],
      }[action];
      await this.run('launchctl', args);
      return { status: action === 'stop' ? 'Stopped' : 'Running' };
    }
    // `--` ends systemctl's options: whatever the name, it is only ever a unit name.
    await this.run('systemctl', [action, '--', serviceName]);
    const { stdout } = await this.run('systemctl', ['is-active', '--', serviceName]).catch(
      (e: { stdout?: string }) => ({
        stdout: e.stdout ?? '',
      }),
    );
    return { status: stdout.trim() === 'active' ? 'Running' : 'Stopped' };
  }
}
