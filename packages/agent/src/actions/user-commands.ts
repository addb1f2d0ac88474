import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { UserSession } from '@outpost/contract/agent-protocol';
import type { Runner } from './executor';

// The programs behind messages, restart prompts and restarts, per OS
// (docs/decisions/2026-11-27-reboot-and-message-steps.md). Built here, run by the step executor;
// tests check the commands with a recording runner. No shell: every value is one argument.

export type Command = { file: string; args: string[] };
export type UserNotice = { title: string; message: string; timeoutSeconds?: number };
export type RebootRequest = { delaySeconds: number; message?: string };

export const defaultRunner: Runner = promisify(execFile);

const SAFE_USER = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** One line: Windows' msg and wall take the notice as one argument. */
const oneLine = (notice: UserNotice) => `${notice.title}: ${notice.message}`.replace(/\s*\r?\n\s*/g, ' ');

/** A PowerShell single-quoted string. */
const psQuote = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** An AppleScript string literal. */
const asQuote = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** The uid of the user at the Mac's console (the owner of /dev/console), or null. */
async function consoleUid(run: Runner): Promise<string | null> {
  const { stdout } = await run('stat', ['-f', '%u', '/dev/console']);
  const uid = stdout.trim();
  return /^\d+$/.test(uid) && uid !== '0' ? uid : null;
}

function dialogScript(notice: UserNotice, buttons: string[], giveUpAfter: number): string {
  const list = buttons.map(asQuote).join(', ');
  return (
    `display dialog ${asQuote(notice.message)} with title ${asQuote(notice.title)} ` +
    `buttons {${list}} default button ${asQuote(buttons.at(-1)!)} giving up after ${giveUpAfter}`
  );
}

/** The commands that show a notice to the logged-in users. */
export async function messageCommands(
  platform: NodeJS.Platform,
  notice: UserNotice,
  sessions: UserSession[],
  run: Runner,
): Promise<Command[]> {
  if (platform === 'win32') {
    // msg * reaches every session of the machine, from the agent's service session too
    const time = notice.timeoutSeconds ? [`/time:${notice.timeoutSeconds}`] : [];
    return [{ file: 'msg.exe', args: ['*', ...time, oneLine(notice)] }];
  }
  if (platform === 'darwin') {
    const uid = await consoleUid(run);
    if (!uid) {
      return [];
    }
    const script = dialogScript(notice, ['OK'], notice.timeoutSeconds ?? 86_400);
    return [{ file: 'launchctl', args: ['asuser', uid, 'osascript', '-e', script] }];
  }
  const commands: Command[] = [{ file: 'wall', args: [oneLine(notice)] }];
  const users = [...new Set(sessions.map((s) => s.userName))].filter((u) => SAFE_USER.test(u));
  for (const user of users) {
    const uid = (await run('id', ['-u', '--', user]).catch(() => ({ stdout: '' }))).stdout.trim();
    if (!/^\d+$/.test(uid)) {
      continue;
    }
    const expire = notice.timeoutSeconds ? ['-t', String(notice.timeoutSeconds * 1000)] : [];
    commands.push({
      file: 'runuser',
      args: [
        '-u',
        user,
        '--',
        'env',
        `DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/${uid}/bus`,
        'notify-send',
        ...expire,
        '--',
        notice.title,
        notice.message,
      ],
    });
  }
  return commands;
}

/** A Yes/No question on the signed-in user's screen: what differs between the two questions. */
type Question = {
  /** added under the message on Windows, where the buttons are Yes and No */
  windowsHint: string;
  /** the MessageBox style: 0x24 Yes/No with a question icon, 0x124 the same with No as default */
  windowsStyle: number;
  /** the PowerShell line printing the answer from $r (IDYES = 6, IDNO = 7, a time-out 32000) */
  windowsAnswer: string;
  /** the macOS dialog's buttons; the last is the default */
  macButtons: [string, string];
  defaultTimeout: number;
};

async function questionCommand(
  platform: NodeJS.Platform,
  notice: UserNotice,
  run: Runner,
  q: Question,
): Promise<Command | null> {
  const timeout = notice.timeoutSeconds ?? q.defaultTimeout;
  if (platform === 'win32') {
    // The agent runs as a service in session 0, where a message box shows on no one's screen:
    // WTSSendMessage puts Yes/No on the console session's desktop and waits for the answer.
    const script = [
      '$sig = \'[DllImport("wtsapi32.dll", CharSet = CharSet.Unicode)] public static extern bool WTSSendMessage(IntPtr h, int s, string t, int tl, string m, int ml, int style, int timeout, out int resp, bool wait); [DllImport("kernel32.dll")] public static extern int WTSGetActiveConsoleSessionId();\'',
      '$w = Add-Type -MemberDefinition $sig -Name Wts -Namespace Outpost -PassThru',
      `$t = ${psQuote(notice.title)}; $m = ${psQuote(`${notice.message}\n\n${q.windowsHint}`)}`,
      '$r = 0',
      `[void]$w::WTSSendMessage([IntPtr]::Zero, $w::WTSGetActiveConsoleSessionId(), $t, $t.Length * 2, $m, $m.Length * 2, 0x${q.windowsStyle.toString(16)}, ${timeout}, [ref]$r, $true)`,
      q.windowsAnswer,
    ].join('\n');
    return { file: 'powershell.exe', args: ['-NoProfile', '-NonInteractive', '-Command', script] };
  }
  if (platform === 'darwin') {
    const uid = await consoleUid(run);
    if (!uid) {
      return null;
    }
    const script = dialogScript(notice, q.macButtons, timeout);
    return { file: 'launchctl', args: ['asuser', uid, 'osascript', '-e', script] };
  }
  return null;
}

/**
 * The "Restart now or later?" question, or null where there is none (Linux). Its output names
 * the answer: "later" or anything else (now).
 */
export function promptCommand(
  platform: NodeJS.Platform,
  notice: UserNotice,
  run: Runner,
): Promise<Command | null> {
  return questionCommand(platform, notice, run, {
    windowsHint: 'Yes: restart now. No: later.',
    windowsStyle: 0x24,
    // only No waits: a time-out restarts now, as the step said it would
    windowsAnswer: "if ($r -eq 7) { 'later' } else { 'now' }",
    macButtons: ['Later', 'Restart now'],
    defaultTimeout: 300,
  });
}

/**
 * "Allow a remote terminal?" for the remote terminal's consent (docs/agent.md "Remote access"),
 * or null where there is no such question (Linux). Its output is "allow" only when the user
 * chose Allow: a refusal, a time-out or a closed dialog are not.
 */
export function consentCommand(
  platform: NodeJS.Platform,
  notice: UserNotice,
  run: Runner,
): Promise<Command | null> {
  return questionCommand(platform, notice, run, {
    windowsHint: 'Yes: allow. No: refuse.',
    // No is the default
    windowsStyle: 0x124,
    // only Yes allows: No, a time-out or a closed box refuse
    windowsAnswer: "if ($r -eq 6) { 'allow' } else { 'deny' }",
    // the default button is the last: Refuse
    macButtons: ['Allow', 'Refuse'],
    defaultTimeout: 60,
  });
}

/** The restart itself, after the request's delay. */
export function rebootCommands(platform: NodeJS.Platform, request: RebootRequest): Command[] {
  if (platform === 'win32') {
    const comment = request.message ? ['/c', request.message.slice(0, 512)] : [];
    return [{ file: 'shutdown.exe', args: ['/r', '/t', String(request.delaySeconds), ...comment] }];
  }
  const minutes = Math.ceil(request.delaySeconds / 60);
  return [{ file: 'shutdown', args: ['-r', minutes === 0 ? 'now' : `+${minutes}`] }];
}
