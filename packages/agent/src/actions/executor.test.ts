import { describe, expect, it } from 'vitest';
import { SystemExecutor, isValidServiceName } from './executor';
import type { Runner } from './executor';

/** Records every command instead of running it; answers status queries like the platform would. */
function recorder(statusOutput = '') {
  const calls: string[] = [];
  const runner: Runner = (file, args) => {
    calls.push([file, ...args].join(' '));
    return Promise.resolve({ stdout: statusOutput });
  };
  return { calls, runner };
}

describe('SystemExecutor commands (recorded, never run)', () => {
  it('restarts and shuts down Windows with a 30 s warning, others with a minute', async () => {
    const win = recorder();
    await new SystemExecutor('win32', win.runner).deviceAction('restart');
    await new SystemExecutor('win32', win.runner).deviceAction('shutdown');
    expect(win.calls).toEqual([
      'shutdown.exe /r /t 30 /c Outpost: requested by an administrator',
      'shutdown.exe /s /t 30 /c Outpost: requested by an administrator',
    ]);
    const mac = recorder();
    await new SystemExecutor('darwin', mac.runner).deviceAction('shutdown');
    expect(mac.calls).toEqual(['shutdown -h +1 Outpost: requested by an administrator']);
  });

  it('controls Windows services through PowerShell and reports the new status', async () => {
    const win = recorder('Stopped\r\n');
    const result = await new SystemExecutor('win32', win.runner).serviceControl('Spooler', 'stop');
    expect(win.calls).toEqual([
      "powershell.exe -NoProfile -Command Stop-Service -Name 'Spooler' -Force",
      "powershell.exe -NoProfile -Command (Get-Service -Name 'Spooler').Status",
    ]);
    expect(result).toEqual({ status: 'Stopped' });
  });

  it('uses systemctl on Linux and launchctl on macOS', async () => {
    const linux = recorder('active\n');
    expect(
      await new SystemExecutor('linux', linux.runner).serviceControl('nginx.service', 'restart'),
    ).toEqual({
      status: 'Running',
    });
    expect(linux.calls).toEqual([
      'systemctl restart -- nginx.service',
      'systemctl is-active -- nginx.service',
    ]);
    const mac = recorder();
    await new SystemExecutor('darwin', mac.runner).serviceControl('com.example.agent', 'restart');
    expect(mac.calls).toEqual(['launchctl kickstart -k system/com.example.agent']);
  });

  it('refuses service names that could smuggle arguments or quotes', async () => {
    const r = recorder();
    await expect(
      new SystemExecutor('win32', r.runner).serviceControl("x'; Restart-Computer; '", 'stop'),
    ).rejects.toThrow('Invalid service name');
    expect(r.calls).toEqual([]);
  });

  it('refuses service names that would read as options, on every platform', async () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const r = recorder();
      for (const name of ['-Hroot@203.0.113.9', '--host=203.0.113.9', '-k', ' -x', '']) {
        await expect(new SystemExecutor(platform, r.runner).serviceControl(name, 'stop')).rejects.toThrow(
          'Invalid service name',
        );
      }
      expect(r.calls).toEqual([]);
    }
  });

  it('ends systemctl options with -- so a unit name is only ever a unit name', async () => {
    const r = recorder('inactive\n');
    await new SystemExecutor('linux', r.runner).serviceControl('getty@tty1.service', 'stop');
    expect(r.calls).toEqual([
      'systemctl stop -- getty@tty1.service',
      'systemctl is-active -- getty@tty1.service',
    ]);
  });

  it('keeps a conservative character set per platform', () => {
    // Real names pass.
    expect(isValidServiceName('win32', 'MSSQL$SQLEXPRESS')).toBe(true);
    expect(isValidServiceName('win32', 'Windows Search')).toBe(true);
    expect(isValidServiceName('linux', 'systemd-fsck@dev-disk-by\\x2duuid-1.service')).toBe(true);
    expect(isValidServiceName('darwin', 'com.apple.metadata.mds')).toBe(true);
    // Quotes, slashes, shell and control characters, and platform-foreign characters do not.
    expect(isValidServiceName('win32', 'Spooler\u2019; Restart-Computer')).toBe(false);
    expect(isValidServiceName('win32', 'Spooler ')).toBe(false);
    expect(isValidServiceName('linux', 'nginx service')).toBe(false);
    expect(isValidServiceName('linux', 'a;reboot')).toBe(false);
    expect(isValidServiceName('linux', 'nginx\nreboot')).toBe(false);
    expect(isValidServiceName('darwin', '../gui/501/com.example')).toBe(false);
    expect(isValidServiceName('darwin', 'com.example/x')).toBe(false);
    expect(isValidServiceName('darwin', 'a'.repeat(256))).toBe(false);
  });

  it('limits the agent’s work folder to SYSTEM and Administrators on Windows, by SID, and does nothing elsewhere', async () => {
    const win = recorder();
    await new SystemExecutor('win32', win.runner).secureFolder('C:\\ProgramData\\Outpost\\state\\work');
    expect(win.calls).toEqual([
      'icacls.exe C:\\ProgramData\\Outpost\\state\\work /inheritance:r /grant:r *S-1-5-18:(OI)(CI)F *S-1-5-32-544:(OI)(CI)F /setowner *S-1-5-32-544',
    ]);
    const linux = recorder();
    await new SystemExecutor('linux', linux.runner).secureFolder('/var/lib/outpost-agent/work');
    expect(linux.calls).toEqual([]);
  });

  it('refuses to touch this machine under the test runner', async () => {
    await expect(new SystemExecutor().deviceAction('shutdown')).rejects.toThrow('dry run');
    await expect(new SystemExecutor().serviceControl('ssh', 'stop')).rejects.toThrow('dry run');
    await expect(new SystemExecutor('win32').secureFolder('C:\\x')).rejects.toThrow('dry run');
  });
});
