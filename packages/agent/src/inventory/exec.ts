import { execFile } from 'node:child_process';

/** Runs a read-only inventory command; null when it is missing, fails or times out. */
export function tryExec(file: string, args: string[], timeoutMs = 20_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (err, stdout) => {
        resolve(err ? null : stdout);
      },
    );
  });
}
