import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { answerConsoleList, consoleListRequest } from './pty-console-list';
import type { ConsoleListDeps } from './pty-console-list';

const root = path.join(os.tmpdir(), 'state', 'native', '0123456789abcdef');
const script = path.join(root, 'node_modules', '@lydell', 'node-pty', 'conpty_console_list_agent');

describe("node-pty's console-list fork of the single executable", () => {
  it('is recognised by the script name and a pid, with an IPC channel, wherever the flags put them', () => {
    const exe = 'C:\\outpost\\outpost-agent.exe';
    expect(consoleListRequest([exe, exe, script, '4242'], true)).toEqual({
      packageDir: path.dirname(script),
      shellPid: 4242,
    });
    expect(
      consoleListRequest([exe, exe, '--max-semi-space-size=1', `${script}.js`, '7'], true),
    ).toMatchObject({
      shellPid: 7,
    });
  });

  it('is not an agent command, a start without IPC, or a script without a pid', () => {
    const exe = '/usr/local/bin/outpost-agent';
    expect(consoleListRequest([exe, exe, 'run'], true)).toBeNull();
    expect(consoleListRequest([exe, exe, script, '4242'], false)).toBeNull();
    expect(consoleListRequest([exe, exe, script], true)).toBeNull();
    expect(consoleListRequest([exe, exe, script, '--config'], true)).toBeNull();
    expect(
      consoleListRequest([exe, exe, 'run', '--config', 'conpty_console_list_agent.json'], true),
    ).toBeNull();
  });

  function deps(embedded: Uint8Array | null, list: number[] | Error) {
    const sent: unknown[] = [];
    const exit = vi.fn();
    const load = vi.fn(() => ({
      getConsoleProcessList: () => {
        if (list instanceof Error) {
          throw list;
        }
        return list;
      },
    }));
    const d: ConsoleListDeps = {
      embedded: () => embedded,
      load,
      send: (message, done) => {
        sent.push(message);
        done();
      },
      exit,
    };
    return { d, sent, exit, load };
  }

  function withExtracted(contents: string, fn: (dir: string) => void) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-conlist-'));
    try {
      const native = path.join(
        dir,
        'node_modules',
        '@lydell',
        `node-pty-${process.platform}-${process.arch}`,
      );
      fs.mkdirSync(native, { recursive: true });
      fs.writeFileSync(path.join(native, 'conpty_console_list.node'), contents);
      fn(path.join(dir, 'node_modules', '@lydell', 'node-pty'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('answers the console list from the extracted module that matches the embedded copy, then exits', () => {
    withExtracted('module', (packageDir) => {
      const { d, sent, exit, load } = deps(new TextEncoder().encode('module'), [10, 11, 12]);
      answerConsoleList({ packageDir, shellPid: 10 }, d);
      expect(load).toHaveBeenCalledWith(expect.stringContaining('conpty_console_list.node'));
      expect(sent).toEqual([{ consoleProcessList: [10, 11, 12] }]);
      expect(exit).toHaveBeenCalledWith(0);
    });
  });

  it('answers the shell alone when the module differs from the embedded copy, is missing or fails', () => {
    withExtracted('tampered', (packageDir) => {
      const { d, sent, exit, load } = deps(new TextEncoder().encode('module'), [10, 11]);
      answerConsoleList({ packageDir, shellPid: 10 }, d);
      expect(load).not.toHaveBeenCalled();
      expect(sent).toEqual([{ consoleProcessList: [10] }]);
      expect(exit).toHaveBeenCalledWith(0);
    });
    const missing = deps(new TextEncoder().encode('module'), [10, 11]);
    answerConsoleList({ packageDir: path.dirname(script), shellPid: 10 }, missing.d);
    expect(missing.sent).toEqual([{ consoleProcessList: [10] }]);
    withExtracted('module', (packageDir) => {
      const failing = deps(new TextEncoder().encode('module'), new Error('no console'));
      answerConsoleList({ packageDir, shellPid: 10 }, failing.d);
      expect(failing.sent).toEqual([{ consoleProcessList: [10] }]);
      expect(failing.exit).toHaveBeenCalledWith(0);
    });
  });
});
