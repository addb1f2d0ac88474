import type { Consent } from '../remote/consent';
import type { PtySpawner } from '../remote/pty';
import { createTerminals } from '../remote/terminals';
import type { Terminals } from '../remote/terminals';
import type { PtyProcess } from '../remote/terminal-session';
import type { ShellCommand } from '../remote/terminal-shell';

// The simulator's terminal (docs/agent.md "Simulator"): a small fake shell instead of a
// pseudo-terminal, so the demo and the benchmarks open terminals on simulated devices. It echoes
// what is typed, shows a prompt, and knows `echo`, `stty size` (the size the browser sent),
// `yes N` (N lines of output, for the benchmarks), `exit`; anything else is "command not found".

const PROMPT = (host: string) => `${host}$ `;

export function fakeShell(host: string, size: { cols: number; rows: number }): PtyProcess {
  let dataListener: (data: string | Buffer) => void = () => undefined;
  let exitListener: (e: { exitCode: number }) => void = () => undefined;
  let line = '';
  let cols = size.cols;
  let rows = size.rows;
  let ended = false;
  let paused = false;
  const held: string[] = [];
  const out = (text: string) => {
    if (ended) {
      return;
    }
    if (paused) {
      held.push(text);
    } else {
      setImmediate(() => dataListener(text));
    }
  };
  const exit = (code: number) => {
    if (!ended) {
      setImmediate(() => exitListener({ exitCode: code }));
      ended = true;
    }
  };
  const run = (commandLine: string) => {
    const [cmd = '', ...args] = commandLine.trim().split(/\s+/);
    if (cmd === '') {
      return;
    }
    if (cmd === 'exit') {
      out('logout\r\n');
      exit(Number(args[0] ?? 0) || 0);
      return;
    }
    if (cmd === 'echo') {
      out(`${args.join(' ')}\r\n`);
    } else if (cmd === 'stty' && args[0] === 'size') {
      out(`${rows} ${cols}\r\n`);
    } else if (cmd === 'yes') {
      const n = Math.min(100_000, Number(args[0] ?? 10) || 10);
      out('y\r\n'.repeat(n));
    } else {
      out(`${cmd}: command not found\r\n`);
    }
  };
  setImmediate(() => dataListener(`Simulated shell on ${host}\r\n${PROMPT(host)}`));
  return {
    pid: 0,
    onData: (l) => {
      dataListener = l;
    },
    onExit: (l) => {
      exitListener = l;
    },
    write(data) {
      for (const ch of data) {
        if (ch === '\r' || ch === '\n') {
          out('\r\n');
          run(line);
          line = '';
          if (!ended) {
            out(PROMPT(host));
          }
        } else if (ch === '\x7f') {
          if (line.length > 0) {
            line = line.slice(0, -1);
            out('\b \b');
          }
        } else if (ch === '\x03') {
          line = '';
          out(`^C\r\n${PROMPT(host)}`);
        } else if (ch === '\x04') {
          exit(0);
        } else if (ch >= ' ') {
          line += ch;
          out(ch);
        }
      }
    },
    resize(c, r) {
      cols = c;
      rows = r;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      const text = held.splice(0).join('');
      if (text) {
        out(text);
      }
    },
    kill() {
      exit(1);
    },
  };
}

/** The simulator's terminals: the fake shell; consent is always given, banners only recorded. */
export function simulatedTerminals(host: string, notify?: (text: string) => void): Terminals {
  const spawner: PtySpawner = (_command, size) => fakeShell(host, size);
  const consent: Consent = {
    ask: () => Promise.resolve(null),
    banner: (text) => notify?.(text),
  };
  const command = (shell: string): ShellCommand => ({
    file: shell === 'default' ? 'sh' : shell,
    args: [],
    cwd: '/',
    env: {},
  });
  return createTerminals({ spawner: () => Promise.resolve(spawner), consent, command });
}
