import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// Everything `outpost-agent install` and `uninstall` do to the machine goes through a host: the
// real one changes files and services; the recording one (tests, OUTPOST_AGENT_DRY_RUN) keeps a
// list of what would have happened and never touches this machine.

export type InstallPlatform = 'linux' | 'win32' | 'darwin';

export type HostStep =
  | { op: 'mkdir'; path: string; mode: number }
  | { op: 'copy'; from: string; to: string }
  | { op: 'write'; path: string; mode: number; content: string }
  | { op: 'symlink'; target: string; path: string }
  | { op: 'remove'; path: string }
  | { op: 'run'; command: string[]; mayFail: boolean }
  | { op: 'detach'; command: string[] };

export type InstallHost = {
  readonly platform: InstallPlatform;
  /** root on Linux and macOS, an elevated Administrator on Windows */
  isPrivileged(): Promise<boolean>;
  exists(file: string): boolean;
  readFile(file: string): string;
  /** creates the folder (and its parents) with this mode when it does not exist */
  mkdir(dir: string, mode: number): void;
  /** copies over `to` through a temporary file and a rename, so a running copy is never torn */
  copy(from: string, to: string): void;
  write(file: string, content: string, mode: number): void;
  symlink(target: string, file: string): void;
  remove(file: string): void;
  /** runs a program without a shell; `mayFail` accepts a non-zero exit (stopping what is not running) */
  run(command: string[], options?: { mayFail?: boolean }): Promise<{ code: number; stdout: string }>;
  /** starts a program that outlives this process (Windows: deleting the running executable) */
  detach(command: string[]): void;
  sleep(ms: number): Promise<void>;
};

export type CommandAnswer = { code: number; stdout: string };

export class RecordingInstallHost implements InstallHost {
  readonly steps: HostStep[] = [];
  private readonly files = new Map<string, string>();

  /**
   * @param files what exists beforehand (path → content)
   * @param answers stdout and exit code of commands, by their first words (`sc.exe query`); a
   *   list answers successive calls in turn, its last answer repeating
   */
  constructor(
    readonly platform: InstallPlatform,
    files: Record<string, string> = {},
    private readonly answers: Record<string, CommandAnswer | CommandAnswer[]> = {},
    private readonly privileged = true,
  ) {
    for (const [file, content] of Object.entries(files)) {
      this.files.set(file, content);
    }
  }

  isPrivileged() {
    return Promise.resolve(this.privileged);
  }
  exists(file: string) {
    return this.files.has(file) || [...this.files.keys()].some((f) => f.startsWith(file + this.sep()));
  }
  readFile(file: string) {
    const content = this.files.get(file);
    if (content === undefined) {
      throw new Error(`ENOENT: ${file}`);
    }
    return content;
  }
  mkdir(dir: string, mode: number) {
    this.steps.push({ op: 'mkdir', path: dir, mode });
  }
  copy(from: string, to: string) {
    this.steps.push({ op: 'copy', from, to });
    this.files.set(to, this.files.get(from) ?? '');
  }
  write(file: string, content: string, mode: number) {
    this.steps.push({ op: 'write', path: file, mode, content });
    this.files.set(file, content);
  }
  symlink(target: string, file: string) {
    this.steps.push({ op: 'symlink', target, path: file });
  }
  remove(file: string) {
    this.steps.push({ op: 'remove', path: file });
    for (const f of [...this.files.keys()]) {
      if (f === file || f.startsWith(file + this.sep())) {
        this.files.delete(f);
      }
    }
  }
  run(command: string[], options: { mayFail?: boolean } = {}) {
    this.steps.push({ op: 'run', command, mayFail: options.mayFail ?? false });
    const key = Object.keys(this.answers).find((prefix) => command.join(' ').startsWith(prefix));
    const answer = key ? this.answers[key]! : { code: 0, stdout: '' };
    if (!Array.isArray(answer)) {
      return Promise.resolve(answer);
    }
    return Promise.resolve((answer.length > 1 ? answer.shift() : answer[0]) ?? { code: 0, stdout: '' });
  }
  detach(command: string[]) {
    this.steps.push({ op: 'detach', command });
  }
  sleep() {
    return Promise.resolve();
  }
  /** the commands run, one string each, for compact assertions */
  commands(): string[] {
    return this.steps.flatMap((s) => (s.op === 'run' ? [s.command.join(' ')] : []));
  }
  private sep() {
    return this.platform === 'win32' ? '\\' : '/';
  }
}

export class SystemInstallHost implements InstallHost {
  readonly platform: InstallPlatform;
  constructor() {
    const p = process.platform;
    if (p !== 'linux' && p !== 'win32' && p !== 'darwin') {
      throw new Error(`outpost-agent install supports Linux, Windows and macOS, not ${p}`);
    }
    this.platform = p;
  }

  async isPrivileged() {
    if (this.platform !== 'win32') {
      return process.getuid?.() === 0;
    }
    // `net session` succeeds only in an elevated (Administrator) process.
    return (await this.run(['net', 'session'], { mayFail: true })).code === 0;
  }
  exists(file: string) {
    return fs.existsSync(file);
  }
  readFile(file: string) {
    return fs.readFileSync(file, 'utf8');
  }
  mkdir(dir: string, mode: number) {
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(dir, { recursive: true, mode });
      fs.chmodSync(dir, mode);
    }
  }
  copy(from: string, to: string) {
    const tmp = `${to}.${process.pid}.tmp`;
    fs.copyFileSync(from, tmp);
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, to);
  }
  write(file: string, content: string, mode: number) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, content, { mode });
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  }
  symlink(target: string, file: string) {
    fs.rmSync(file, { force: true });
    fs.symlinkSync(target, file);
  }
  remove(file: string) {
    fs.rmSync(file, { recursive: true, force: true });
  }
  run(command: string[], options: { mayFail?: boolean } = {}) {
    const [file, ...args] = command;
    return new Promise<{ code: number; stdout: string }>((resolve, reject) => {
      execFile(file!, args, { windowsHide: true }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        if (code !== 0 && !options.mayFail) {
          reject(new Error(`${command.join(' ')} failed (exit ${code}): ${String(stderr || stdout).trim()}`));
          return;
        }
        resolve({ code, stdout: String(stdout) });
      });
    });
  }
  detach(command: string[]) {
    const [file, ...args] = command;
    spawn(file!, args, { detached: true, stdio: 'ignore', windowsHide: true }).unref();
  }
  sleep(ms: number) {
    return new Promise<void>((resolve) => setTimeout(resolve, ms));
  }
}

/**
 * OUTPOST_AGENT_DRY_RUN: reads this machine's files (the configuration to install) but only
 * records what it would write and run.
 */
export class DryRunInstallHost extends RecordingInstallHost {
  override exists(file: string) {
    return super.exists(file) || fs.existsSync(file);
  }
  override readFile(file: string) {
    return super.exists(file) ? super.readFile(file) : fs.readFileSync(file, 'utf8');
  }
}
