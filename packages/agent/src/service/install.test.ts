import { describe, expect, it } from 'vitest';
import { RecordingInstallHost } from './host';
import { installService, uninstallService } from './install';

// Service registration is never run on this machine: a recording host keeps the files and the
// commands each platform would get, and these tests assert them exactly.

const enrolled = (stateDir: string) =>
  JSON.stringify({
    server: 'https://portal.example.com',
    deviceGuid: 'dev-1',
    agentSecret: 'secret',
    stateDir,
    externalIpUrl: null,
  });

function written(host: RecordingInstallHost, file: string) {
  const step = host.steps.find((s) => s.op === 'write' && s.path === file);
  if (step?.op !== 'write') {
    throw new Error(`${file} was not written`);
  }
  return step;
}

describe('outpost-agent install on Linux', () => {
  it('copies the executable, moves the identity to /etc/outpost and enables a systemd unit', async () => {
    const host = new RecordingInstallHost('linux', {
      '/home/me/outpost-agent-linux-x64': 'ELF',
      '/home/me/.config/outpost-agent/agent.json': enrolled('/home/me/.config/outpost-agent/state'),
    });
    const done = await installService(host, {
      executable: '/home/me/outpost-agent-linux-x64',
      configSource: '/home/me/.config/outpost-agent/agent.json',
    });

    expect(host.steps.filter((s) => s.op !== 'write' && s.op !== 'run')).toEqual([
      { op: 'mkdir', path: '/etc/outpost', mode: 0o700 },
      { op: 'mkdir', path: '/var/lib/outpost-agent', mode: 0o700 },
      { op: 'mkdir', path: '/opt/outpost', mode: 0o755 },
      { op: 'copy', from: '/home/me/outpost-agent-linux-x64', to: '/opt/outpost/outpost-agent' },
      { op: 'symlink', target: '/opt/outpost/outpost-agent', path: '/usr/local/bin/outpost-agent' },
    ]);
    const config = written(host, '/etc/outpost/agent.json');
    expect(config.mode).toBe(0o600);
    expect(JSON.parse(config.content)).toMatchObject({
      deviceGuid: 'dev-1',
      stateDir: '/var/lib/outpost-agent',
    });
    const unit = written(host, '/etc/systemd/system/outpost-agent.service');
    expect(unit.mode).toBe(0o644);
    expect(unit.content).toContain(
      'ExecStart=/opt/outpost/outpost-agent run --config /etc/outpost/agent.json\n',
    );
    expect(unit.content).toContain('Restart=always\n');
    expect(unit.content).toContain('WantedBy=multi-user.target\n');
    expect(host.commands()).toEqual([
      'systemctl daemon-reload',
      'systemctl enable outpost-agent.service',
      'systemctl restart outpost-agent.service',
    ]);
    expect(done).toContain('systemd unit outpost-agent.service enabled and started');
  });

  it('keeps an installed identity and does not copy the installed executable onto itself', async () => {
    const host = new RecordingInstallHost('linux', {
      '/opt/outpost/outpost-agent': 'ELF',
      '/etc/outpost/agent.json': enrolled('/var/lib/outpost-agent'),
    });
    const done = await installService(host, { executable: '/opt/outpost/outpost-agent' });
    expect(host.steps.some((s) => s.op === 'copy')).toBe(false);
    expect(host.steps.some((s) => s.op === 'write' && s.path === '/etc/outpost/agent.json')).toBe(false);
    expect(done[0]).toBe('configuration kept at /etc/outpost/agent.json');
  });

  it('refuses without root, and without an identity, before changing anything', async () => {
    const user = new RecordingInstallHost('linux', {}, {}, false);
    await expect(installService(user, { executable: '/tmp/a' })).rejects.toThrow('Run this as root (sudo).');
    const root = new RecordingInstallHost('linux');
    await expect(installService(root, { executable: '/tmp/a' })).rejects.toThrow(
      'No agent configuration at /etc/outpost/agent.json',
    );
    await expect(
      installService(root, { executable: '/tmp/a', configSource: '/tmp/missing.json' }),
    ).rejects.toThrow('No agent configuration at /tmp/missing.json');
    expect([...user.steps, ...root.steps]).toEqual([]);
  });

  it('uninstall stops and removes the unit and the executable, and keeps the identity unless purged', async () => {
    const keep = new RecordingInstallHost('linux');
    expect(await uninstallService(keep, { executable: '/opt/outpost/outpost-agent' })).toContain(
      'configuration kept at /etc/outpost/agent.json (--purge removes it)',
    );
    expect(keep.steps).toEqual([
      { op: 'run', command: ['systemctl', 'disable', '--now', 'outpost-agent.service'], mayFail: true },
      { op: 'remove', path: '/etc/systemd/system/outpost-agent.service' },
      { op: 'run', command: ['systemctl', 'daemon-reload'], mayFail: false },
      { op: 'remove', path: '/usr/local/bin/outpost-agent' },
      { op: 'remove', path: '/opt/outpost' },
    ]);
    const purge = new RecordingInstallHost('linux');
    await uninstallService(purge, { executable: '/opt/outpost/outpost-agent', purge: true });
    expect(purge.steps.slice(5)).toEqual([
      { op: 'remove', path: '/etc/outpost' },
      { op: 'remove', path: '/var/lib/outpost-agent' },
    ]);
  });
});

describe('outpost-agent install on Windows', () => {
  const env = { ProgramFiles: 'C:\\Program Files', ProgramData: 'C:\\ProgramData', WINDIR: 'C:\\Windows' };
  const downloaded = 'C:\\Users\\me\\Downloads\\outpost-agent-win-x64.exe';

  it('compiles the service wrapper and registers it with the service control manager', async () => {
    const host = new RecordingInstallHost(
      'win32',
      {
        [downloaded]: 'MZ',
        'C:\\ProgramData\\Outpost\\agent.json': enrolled('C:\\ProgramData\\Outpost\\state'),
      },
      // `sc.exe query` fails: no such service yet
      { 'sc.exe query': { code: 1060, stdout: '' } },
    );
    await installService(host, { executable: downloaded, env });

    expect(host.steps.find((s) => s.op === 'copy')).toEqual({
      op: 'copy',
      from: downloaded,
      to: 'C:\\Program Files\\Outpost\\outpost-agent.exe',
    });
    const wrapper = written(host, 'C:\\Program Files\\Outpost\\outpost-agent-service.cs');
    expect(wrapper.content).toContain(
      'const string Agent = @"C:\\Program Files\\Outpost\\outpost-agent.exe";',
    );
    expect(wrapper.content).toContain(
      'const string Arguments = @"run --stop-on-stdin-end --config ""C:\\ProgramData\\Outpost\\agent.json""";',
    );
    expect(wrapper.content).toContain('ServiceName = @"OutpostAgent";');
    expect(wrapper.content).toContain('child.StandardInput.Close();');
    expect(host.commands()).toEqual([
      'sc.exe query OutpostAgent',
      'icacls C:\\ProgramData\\Outpost /inheritance:r /grant:r *S-1-5-18:(OI)(CI)F *S-1-5-32-544:(OI)(CI)F',
      'C:\\Windows\\Microsoft.NET\\Framework64\\v4.0.30319\\csc.exe /nologo /optimize+ /target:exe ' +
        '/out:C:\\Program Files\\Outpost\\outpost-agent-service.exe /reference:System.ServiceProcess.dll ' +
        'C:\\Program Files\\Outpost\\outpost-agent-service.cs',
      'sc.exe create OutpostAgent binPath= "C:\\Program Files\\Outpost\\outpost-agent-service.exe" start= auto DisplayName= Outpost Agent',
      'sc.exe description OutpostAgent Outpost device agent: reports to and takes orders from the Outpost portal',
      'sc.exe failure OutpostAgent reset= 86400 actions= restart/5000/restart/5000/restart/30000',
      'sc.exe failureflag OutpostAgent 1',
      'sc.exe start OutpostAgent',
    ]);
  });

  it('stops an installed service and waits until it has stopped before replacing its executable', async () => {
    const running = { code: 0, stdout: 'STATE              : 4  RUNNING' };
    const host = new RecordingInstallHost(
      'win32',
      {
        [downloaded]: 'MZ',
        'C:\\ProgramData\\Outpost\\agent.json': enrolled('C:\\ProgramData\\Outpost\\state'),
      },
      { 'sc.exe query': [running, running, { code: 0, stdout: 'STATE              : 1  STOPPED' }] },
    );
    await installService(host, { executable: downloaded, env });
    const order = host.steps.map((s) => (s.op === 'run' ? s.command.slice(0, 2).join(' ') : s.op));
    expect(order.slice(0, 6)).toEqual([
      'sc.exe query', // does it exist?
      'sc.exe stop',
      'sc.exe query', // still running
      'sc.exe query', // stopped
      'mkdir',
      'copy',
    ]);
    expect(host.commands()).toContain(
      'sc.exe config OutpostAgent binPath= "C:\\Program Files\\Outpost\\outpost-agent-service.exe" start= auto',
    );
  });

  it('uninstall from the installed executable deletes its folder after it exits', async () => {
    // the service is gone already: `sc.exe query` fails with 1060
    const host = new RecordingInstallHost('win32', {}, { 'sc.exe query': { code: 1060, stdout: '' } });
    await uninstallService(host, {
      executable: 'C:\\Program Files\\Outpost\\outpost-agent.exe',
      env,
      purge: true,
    });
    expect(host.steps).toEqual([
      { op: 'run', command: ['sc.exe', 'stop', 'OutpostAgent'], mayFail: true },
      { op: 'run', command: ['sc.exe', 'query', 'OutpostAgent'], mayFail: true },
      { op: 'run', command: ['sc.exe', 'delete', 'OutpostAgent'], mayFail: true },
      {
        op: 'detach',
        command: [
          'powershell.exe',
          '-NoProfile',
          '-Command',
          "Start-Sleep -Seconds 3; Remove-Item -LiteralPath 'C:\\Program Files\\Outpost' -Recurse -Force",
        ],
      },
      { op: 'remove', path: 'C:\\ProgramData\\Outpost' },
      { op: 'remove', path: 'C:\\ProgramData\\Outpost\\state' },
    ]);
  });

  it('gives up, before touching the files, when the service does not stop', async () => {
    const host = new RecordingInstallHost(
      'win32',
      { 'C:\\ProgramData\\Outpost\\agent.json': enrolled('C:\\ProgramData\\Outpost\\state') },
      { 'sc.exe query': { code: 0, stdout: 'STATE              : 3  STOP_PENDING' } },
    );
    await expect(installService(host, { executable: downloaded, env })).rejects.toThrow(
      'The Windows service OutpostAgent did not stop within 30 s',
    );
    expect(host.steps.filter((s) => s.op !== 'run')).toEqual([]);
  });

  it('asks for an elevated prompt', async () => {
    const host = new RecordingInstallHost('win32', {}, {}, false);
    await expect(uninstallService(host, { executable: downloaded, env })).rejects.toThrow(
      'Run as administrator',
    );
  });
});

describe('outpost-agent install on macOS', () => {
  it('installs a launchd daemon and bootstraps it in the system domain', async () => {
    const host = new RecordingInstallHost('darwin', {
      '/Users/me/outpost-agent-darwin-arm64': 'MACHO',
      '/Users/me/.config/outpost-agent/agent.json': enrolled('/Users/me/.config/outpost-agent/state'),
    });
    await installService(host, {
      executable: '/Users/me/outpost-agent-darwin-arm64',
      configSource: '/Users/me/.config/outpost-agent/agent.json',
    });
    expect(host.steps.find((s) => s.op === 'copy')).toEqual({
      op: 'copy',
      from: '/Users/me/outpost-agent-darwin-arm64',
      to: '/usr/local/outpost/outpost-agent',
    });
    expect(
      JSON.parse(written(host, '/Library/Application Support/Outpost/agent.json').content),
    ).toMatchObject({
      stateDir: '/Library/Application Support/Outpost/state',
    });
    const plist = written(host, '/Library/LaunchDaemons/com.outpost.agent.plist');
    expect(plist.mode).toBe(0o644);
    expect(plist.content).toContain('<key>Label</key>\n  <string>com.outpost.agent</string>');
    expect(plist.content).toContain(
      [
        '    <string>/usr/local/outpost/outpost-agent</string>',
        '    <string>run</string>',
        '    <string>--config</string>',
        '    <string>/Library/Application Support/Outpost/agent.json</string>',
      ].join('\n'),
    );
    expect(plist.content).toContain('<key>KeepAlive</key>\n  <true/>');
    expect(host.commands()).toEqual([
      'launchctl bootout system/com.outpost.agent',
      'launchctl bootstrap system /Library/LaunchDaemons/com.outpost.agent.plist',
      'launchctl enable system/com.outpost.agent',
    ]);
  });

  it('uninstall boots the daemon out and removes its files', async () => {
    const host = new RecordingInstallHost('darwin');
    await uninstallService(host, { executable: '/usr/local/outpost/outpost-agent' });
    expect(host.steps).toEqual([
      { op: 'run', command: ['launchctl', 'bootout', 'system/com.outpost.agent'], mayFail: true },
      { op: 'remove', path: '/Library/LaunchDaemons/com.outpost.agent.plist' },
      { op: 'remove', path: '/usr/local/outpost' },
    ]);
  });
});
