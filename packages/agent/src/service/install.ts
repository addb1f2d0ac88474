import { AgentConfig } from '../config';
import { launchdPlist, systemdUnit, windowsServiceWrapper } from './definitions';
import type { InstallHost } from './host';
import { installLayout, pathFor } from './layout';
import type { InstallLayout } from './layout';

// outpost-agent install: copies the running executable to the system location, puts the
// configuration where the service reads it and registers the service (systemd, the Windows
// service control manager, launchd). outpost-agent uninstall: the reverse. Every change goes
// through an InstallHost, so tests record the exact files and commands of each platform.

export type InstallOptions = {
  /** the executable being installed: process.execPath of the single executable */
  executable: string;
  /** an enrolled configuration to install; the one already installed is kept when absent */
  configSource?: string;
  env?: NodeJS.ProcessEnv;
};

function notPrivileged(host: InstallHost): Error {
  return new Error(
    host.platform === 'win32'
      ? 'Run this from an elevated prompt (Run as administrator).'
      : 'Run this as root (sudo).',
  );
}

/** Puts an enrolled configuration at the system location, its state folder moved beside it. */
function installConfig(host: InstallHost, layout: InstallLayout, source: string | undefined): string {
  if (source && source !== layout.config) {
    if (!host.exists(source)) {
      throw new Error(`No agent configuration at ${source}. Enrol first, or pass --server and --token.`);
    }
    const parsed = AgentConfig.safeParse(JSON.parse(host.readFile(source)));
    if (!parsed.success) {
      throw new Error(
        `The agent configuration at ${source} is invalid: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    }
    // the configuration holds the device's secret; the state, results not yet delivered
    host.mkdir(layout.configDir, 0o700);
    host.mkdir(layout.stateDir, 0o700);
    host.write(
      layout.config,
      JSON.stringify({ ...parsed.data, stateDir: layout.stateDir }, null, 2) + '\n',
      0o600,
    );
    return `configuration copied from ${source} to ${layout.config}`;
  }
  if (!host.exists(layout.config)) {
    throw new Error(
      `No agent configuration at ${layout.config}. Pass --server URL --token TOKEN to enrol, or --config PATH of an enrolled agent.`,
    );
  }
  return `configuration kept at ${layout.config}`;
}

/**
 * `sc.exe stop` only asks: the service (and the agent it runs) may take up to 20 s to let go of
 * the executable. Waits until `sc.exe query` says STOPPED (or the service is gone).
 */
async function stopWindowsService(host: InstallHost, name: string): Promise<void> {
  await host.run(['sc.exe', 'stop', name], { mayFail: true });
  for (let i = 0; i < 60; i++) {
    const query = await host.run(['sc.exe', 'query', name], { mayFail: true });
    if (query.code !== 0 || /STOPPED/.test(query.stdout)) {
      return;
    }
    await host.sleep(500);
  }
  throw new Error(`The Windows service ${name} did not stop within 30 s; stop it and try again.`);
}

export async function installService(host: InstallHost, options: InstallOptions): Promise<string[]> {
  if (!(await host.isPrivileged())) {
    throw notPrivileged(host);
  }
  const layout = installLayout(host.platform, options.env);
  const done = [installConfig(host, layout, options.configSource)];
  const sameFile = pathFor(host.platform).resolve(options.executable) === layout.exe;

  if (host.platform === 'linux') {
    host.mkdir(layout.dir, 0o755);
    if (!sameFile) {
      host.copy(options.executable, layout.exe);
    }
    host.symlink(layout.exe, layout.link!);
    host.write(layout.serviceFile!, systemdUnit(layout), 0o644);
    await host.run(['systemctl', 'daemon-reload']);
    await host.run(['systemctl', 'enable', layout.serviceName]);
    // restart: starts it, or runs the new executable when it was running already
    await host.run(['systemctl', 'restart', layout.serviceName]);
    done.push(`${layout.exe} installed`, `systemd unit ${layout.serviceName} enabled and started`);
    return done;
  }

  if (host.platform === 'darwin') {
    // a daemon loaded from an earlier install holds the old executable: unload it first
    await host.run(['launchctl', 'bootout', `system/${layout.serviceName}`], { mayFail: true });
    host.mkdir(layout.dir, 0o755);
    if (!sameFile) {
      host.copy(options.executable, layout.exe);
    }
    host.mkdir(layout.logDir!, 0o755);
    host.write(layout.serviceFile!, launchdPlist(layout), 0o644);
    await host.run(['launchctl', 'bootstrap', 'system', layout.serviceFile!]);
    await host.run(['launchctl', 'enable', `system/${layout.serviceName}`]);
    done.push(`${layout.exe} installed`, `launchd daemon ${layout.serviceName} loaded and started`);
    return done;
  }

  // Windows: a running service holds its executable open, so stop it before the copy.
  const name = layout.serviceName;
  const exists = (await host.run(['sc.exe', 'query', name], { mayFail: true })).code === 0;
  if (exists) {
    await stopWindowsService(host, name);
  }
  host.mkdir(layout.dir, 0o755);
  if (!sameFile) {
    host.copy(options.executable, layout.exe);
  }
  // ProgramData lets every local user read; the identity's folder is for SYSTEM and
  // Administrators only (SIDs, not names, which Windows translates)
  await host.run([
    'icacls',
    layout.configDir,
    '/inheritance:r',
    '/grant:r',
    '*S-1-5-18:(OI)(CI)F',
    '*S-1-5-32-544:(OI)(CI)F',
  ]);
  const windir = options.env?.WINDIR ?? options.env?.SystemRoot ?? 'C:\\Windows';
  host.write(layout.wrapperSource!, windowsServiceWrapper(layout), 0o644);
  await host.run([
    `${windir}\\Microsoft.NET\\Framework64\\v4.0.30319\\csc.exe`,
    '/nologo',
    '/optimize+',
    '/target:exe',
    `/out:${layout.wrapperExe!}`,
    '/reference:System.ServiceProcess.dll',
    layout.wrapperSource!,
  ]);
  const binPath = `"${layout.wrapperExe!}"`;
  await host.run(
    exists
      ? ['sc.exe', 'config', name, 'binPath=', binPath, 'start=', 'auto']
      : ['sc.exe', 'create', name, 'binPath=', binPath, 'start=', 'auto', 'DisplayName=', 'Outpost Agent'],
  );
  await host.run([
    'sc.exe',
    'description',
    name,
    'Outpost device agent: reports to and takes orders from the Outpost portal',
  ]);
  // restart after 5 s, 5 s, then 30 s; a day without failures resets the count
  await host.run([
    'sc.exe',
    'failure',
    name,
    'reset=',
    '86400',
    'actions=',
    'restart/5000/restart/5000/restart/30000',
  ]);
  // failure actions also when the wrapper stops with an error (the agent exited on its own)
  await host.run(['sc.exe', 'failureflag', name, '1']);
  await host.run(['sc.exe', 'start', name]);
  done.push(
    `${layout.exe} installed`,
    `Windows service ${name} ${exists ? 'updated' : 'created'} and started`,
  );
  return done;
}

export type UninstallOptions = {
  /** also remove the configuration (the device's identity) and the state */
  purge?: boolean;
  /** the running executable: on Windows it cannot delete itself while it runs */
  executable: string;
  env?: NodeJS.ProcessEnv;
};

export async function uninstallService(host: InstallHost, options: UninstallOptions): Promise<string[]> {
  if (!(await host.isPrivileged())) {
    throw notPrivileged(host);
  }
  const layout = installLayout(host.platform, options.env);
  const done: string[] = [];

  if (host.platform === 'linux') {
    await host.run(['systemctl', 'disable', '--now', layout.serviceName], { mayFail: true });
    host.remove(layout.serviceFile!);
    await host.run(['systemctl', 'daemon-reload']);
    host.remove(layout.link!);
    host.remove(layout.dir);
    done.push(`systemd unit ${layout.serviceName} stopped and removed`, `${layout.dir} removed`);
  } else if (host.platform === 'darwin') {
    await host.run(['launchctl', 'bootout', `system/${layout.serviceName}`], { mayFail: true });
    host.remove(layout.serviceFile!);
    host.remove(layout.dir);
    done.push(`launchd daemon ${layout.serviceName} stopped and removed`, `${layout.dir} removed`);
  } else {
    await stopWindowsService(host, layout.serviceName);
    await host.run(['sc.exe', 'delete', layout.serviceName], { mayFail: true });
    const win = pathFor('win32');
    const running = win.resolve(options.executable).toLowerCase();
    if (running.startsWith(layout.dir.toLowerCase() + '\\')) {
      // Windows keeps a running executable locked: remove the folder once this process is gone.
      const literal = layout.dir.replace(/'/g, "''");
      host.detach([
        'powershell.exe',
        '-NoProfile',
        '-Command',
        `Start-Sleep -Seconds 3; Remove-Item -LiteralPath '${literal}' -Recurse -Force`,
      ]);
      done.push(`Windows service ${layout.serviceName} removed`, `${layout.dir} is removed in a few seconds`);
    } else {
      host.remove(layout.dir);
      done.push(`Windows service ${layout.serviceName} removed`, `${layout.dir} removed`);
    }
  }

  if (options.purge) {
    for (const dir of new Set([
      layout.configDir,
      layout.stateDir,
      ...(layout.logDir ? [layout.logDir] : []),
    ])) {
      host.remove(dir);
    }
    done.push(`configuration and state removed (${layout.configDir})`);
  } else {
    done.push(`configuration kept at ${layout.config} (--purge removes it)`);
  }
  return done;
}
