import { describe, expect, it } from 'vitest';
import type { Runner } from './executor';
import { RecordingStepExecutor, SystemStepExecutor } from './step-executor';

// The programs the REBOOT and MESSAGE steps run per OS, checked with a recording runner: nothing
// here reaches the host (docs/decisions/2026-11-27-reboot-and-message-steps.md).

const USERS = [{ sessionId: '1', userName: 'alice' }];

function recorder(answers: Record<string, string> = {}) {
  const calls: [string, string[]][] = [];
  const run: Runner = (file, args) => {
    calls.push([file, args]);
    return Promise.resolve({ stdout: answers[file] ?? '' });
  };
  return { calls, run };
}

describe('the system step executor', () => {
  it('Windows: msg * with the time-out, shutdown /r /t with the message, a WTS Yes/No prompt', async () => {
    const { calls, run } = recorder({ 'powershell.exe': 'later\r\n' });
    const ex = new SystemStepExecutor(() => Promise.resolve(USERS), 'win32', run);
    await ex.showMessage({ title: 'IT', message: 'Save\nnow', timeoutSeconds: 30 });
    await ex.reboot({ delaySeconds: 60, message: 'Restarting' });
    expect(await ex.askRestart({ title: 'Restart', message: 'Now?' })).toBe('later');
    expect(calls[0]).toEqual(['msg.exe', ['*', '/time:30', 'IT: Save now']]);
    expect(calls[1]).toEqual(['shutdown.exe', ['/r', '/t', '60', '/c', 'Restarting']]);
    expect(calls[2]![0]).toBe('powershell.exe');
    expect(calls[2]![1].at(-1)).toContain('WTSSendMessage');
  });

  it('macOS: the console user’s dialog through launchctl asuser, shutdown -r +minutes', async () => {
    const { calls, run } = recorder({
      stat: '501\n',
      launchctl: 'button returned:Restart now, gave up:false',
    });
    const ex = new SystemStepExecutor(() => Promise.resolve(USERS), 'darwin', run);
    expect(await ex.askRestart({ title: 'Restart', message: 'Say "now"' })).toBe('now');
    await ex.reboot({ delaySeconds: 90 });
    expect(calls[1]![0]).toBe('launchctl');
    expect(calls[1]![1].slice(0, 4)).toEqual(['asuser', '501', 'osascript', '-e']);
    expect(calls[1]![1][4]).toContain('buttons {"Later", "Restart now"}');
    expect(calls[1]![1][4]).toContain('"Say \\"now\\""');
    expect(calls.at(-1)).toEqual(['shutdown', ['-r', '+2']]);
  });

  it('Linux: wall and notify-send in each user’s session, no prompt, shutdown -r now for no delay', async () => {
    const { calls, run } = recorder({ id: '1000\n' });
    const ex = new SystemStepExecutor(() => Promise.resolve(USERS), 'linux', run);
    await ex.showMessage({ title: 'IT', message: 'Hello' });
    expect(await ex.askRestart({ title: 'Restart', message: 'Now?' })).toBe('unsupported');
    await ex.reboot({ delaySeconds: 0 });
    expect(calls).toContainEqual(['wall', ['IT: Hello']]);
    expect(calls).toContainEqual([
      'runuser',
      [
        '-u',
        'alice',
        '--',
        'env',
        'DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus',
        'notify-send',
        '--',
        'IT',
        'Hello',
      ],
    ]);
    expect(calls.at(-1)).toEqual(['shutdown', ['-r', 'now']]);
  });

  it('refuses to act under tests without a recording runner', async () => {
    const ex = new SystemStepExecutor(() => Promise.resolve([]), 'linux');
    await expect(ex.reboot({ delaySeconds: 60 })).rejects.toThrow(/dry run/);
  });
});

describe('the recording step executor', () => {
  it('records calls and answers prompts in order, then "now"', async () => {
    const ex = new RecordingStepExecutor({ answers: ['later'] });
    const signal = new AbortController().signal;
    expect(await ex.askRestart({ title: 't', message: 'm' }, signal)).toBe('later');
    expect(await ex.askRestart({ title: 't', message: 'm' }, signal)).toBe('now');
    await ex.reboot({ delaySeconds: 1 });
    expect(ex.calls.map((c) => c.kind)).toEqual(['ask_restart', 'ask_restart', 'reboot']);
  });
});
