import path from 'node:path';
import type { InstallPlatform } from './host';

// Where an installed agent lives on each platform. The executable gets a folder of its own (the
// self-update swaps files inside it); configuration and state live where the platform keeps a
// system service's data, so they survive an uninstall that keeps the configuration.

export type InstallLayout = {
  /** folder that holds the executable (and, on Windows, the service wrapper) */
  dir: string;
  exe: string;
  /** Linux: a link on PATH to the executable */
  link?: string;
  configDir: string;
  config: string;
  stateDir: string;
  logDir?: string;
  /** systemd unit name, Windows service name or launchd label */
  serviceName: string;
  /** the unit file or launchd plist (Windows keeps its services in the registry) */
  serviceFile?: string;
  /** Windows: the service wrapper's source and executable */
  wrapperSource?: string;
  wrapperExe?: string;
};

export function pathFor(platform: InstallPlatform) {
  return platform === 'win32' ? path.win32 : path.posix;
}

export function installLayout(
  platform: InstallPlatform,
  env: NodeJS.ProcessEnv = process.env,
): InstallLayout {
  if (platform === 'win32') {
    const programFiles = env.ProgramFiles ?? 'C:\\Program Files';
    const programData = env.ProgramData ?? 'C:\\ProgramData';
    const dir = path.win32.join(programFiles, 'Outpost');
    const configDir = path.win32.join(programData, 'Outpost');
    return {
      dir,
      exe: path.win32.join(dir, 'outpost-agent.exe'),
      configDir,
      // the same file defaultConfigPath() names on Windows
      config: path.win32.join(configDir, 'agent.json'),
      stateDir: path.win32.join(configDir, 'state'),
      logDir: configDir,
      serviceName: 'OutpostAgent',
      wrapperSource: path.win32.join(dir, 'outpost-agent-service.cs'),
      wrapperExe: path.win32.join(dir, 'outpost-agent-service.exe'),
    };
  }
  if (platform === 'darwin') {
    const configDir = '/Library/Application Support/Outpost';
    return {
      dir: '/usr/local/outpost',
      exe: '/usr/local/outpost/outpost-agent',
      configDir,
      config: `${configDir}/agent.json`,
      stateDir: `${configDir}/state`,
      logDir: '/Library/Logs/Outpost',
      serviceName: 'com.outpost.agent',
      serviceFile: '/Library/LaunchDaemons/com.outpost.agent.plist',
    };
  }
  return {
    dir: '/opt/outpost',
    exe: '/opt/outpost/outpost-agent',
    link: '/usr/local/bin/outpost-agent',
    configDir: '/etc/outpost',
    config: '/etc/outpost/agent.json',
    stateDir: '/var/lib/outpost-agent',
    serviceName: 'outpost-agent.service',
    serviceFile: '/etc/systemd/system/outpost-agent.service',
  };
}
