import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getRawAsset, isSea } from 'node:sea';

// node-pty on Windows lists a ConPTY's processes (to end them with the shell) in a child process:
// child_process.fork(<node-pty>/conpty_console_list_agent, [shellPid]), because a process can
// attach to one console only. A fork runs process.execPath, which in the single executable is the
// agent itself, with that script's path and the pid as arguments. main.ts asks this first: such a
// start answers the list with the extracted conpty_console_list.node (pty-sea-package.ts; checked
// against the embedded copy) and exits, and never starts an agent.

export const CONSOLE_LIST_SCRIPT = 'conpty_console_list_agent';

export interface ConsoleListRequest {
  /** the extracted node-pty folder the script path names */
  packageDir: string;
  shellPid: number;
}

/** The request when these arguments are node-pty's console-list fork, else null. */
export function consoleListRequest(argv: readonly string[], hasIpc: boolean): ConsoleListRequest | null {
  if (!hasIpc) {
    return null;
  }
  const at = argv.findIndex(
    (arg, i) => i > 0 && path.basename(arg).replace(/\.js$/, '') === CONSOLE_LIST_SCRIPT,
  );
  const pid = at > 0 ? argv[at + 1] : undefined;
  if (pid === undefined || !/^\d{1,10}$/.test(pid)) {
    return null;
  }
  return { packageDir: path.dirname(argv[at]!), shellPid: Number(pid) };
}

type ConsoleListModule = { getConsoleProcessList(pid: number): number[] };

export interface ConsoleListDeps {
  /** the embedded copy of a file of the extracted tree (null: none) */
  embedded(file: string): Uint8Array | null;
  load(file: string): ConsoleListModule;
  send(message: { consoleProcessList: number[] }, done: () => void): void;
  exit(code: number): void;
}

const sha256 = (data: Uint8Array) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * Answers node-pty's request: the processes attached to the shell's console, or the shell alone
 * where the module is not the embedded one or fails (node-pty then ends just the shell).
 */
export function answerConsoleList(
  request: ConsoleListRequest,
  deps: ConsoleListDeps = seaConsoleListDeps(),
): void {
  let list = [request.shellPid];
  const relative = `node_modules/@lydell/node-pty-${process.platform}-${process.arch}/conpty_console_list.node`;
  // <root>/node_modules/@lydell/node-pty → <root>
  const root = path.resolve(request.packageDir, '..', '..', '..');
  const file = path.join(root, ...relative.split('/'));
  try {
    const embedded = deps.embedded(relative);
    if (embedded && fs.existsSync(file) && sha256(fs.readFileSync(file)) === sha256(embedded)) {
      list = deps.load(file).getConsoleProcessList(request.shellPid);
    }
  } catch {
    // the shell alone
  }
  deps.send({ consoleProcessList: list }, () => deps.exit(0));
}

function seaConsoleListDeps(): ConsoleListDeps {
  return {
    embedded: (file) => (isSea() ? new Uint8Array(getRawAsset(`node-pty/${file}`) as ArrayBuffer) : null),
    load: (file) => {
      const mod = { exports: {} as ConsoleListModule };
      process.dlopen(mod, file);
      return mod.exports;
    },
    send: (message, done) => process.send!(message, undefined, undefined, () => done()),
    exit: (code) => process.exit(code),
  };
}
