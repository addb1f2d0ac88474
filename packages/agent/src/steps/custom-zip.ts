import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StepHandler } from './context';
import { StepError, errorText, isWindows, runProgram, splitArguments, windowsInvocation } from './context';
import { fetchVerified } from './sources';
import { entryTarget, extractZip } from './zip';

// docs/product/packages.md#builder CUSTOM_ZIP — extract the archive (into extract_path, or a folder of the
// step's own in the working directory), run main_executable from it, and delete what was
// extracted when cleanup is on.
export const runCustomZipStep: StepHandler = async (details, ctx) => {
  const zipFile = await fetchVerified(ctx, details.zip_file, 'ZIP File');
  const requested = typeof details.extract_path === 'string' ? details.extract_path.trim() : '';
  const root = path.resolve(requested === '' ? path.join(ctx.scratchDir, 'extracted') : requested);
  const hadRoot = await stat(root).then(
    () => true,
    () => false,
  );
  const before = hadRoot ? new Set(await readdir(root)) : new Set<string>();
  const written = new Set<string>();
  try {
    const main = typeof details.main_executable === 'string' ? details.main_executable.trim() : '';
    const program = entryTarget(root, main.replace(/\\/g, '/'));
    const { hasExecutable } = await extractZip(zipFile, root, ctx.zipLimits, {
      written,
      executablePath: program,
      platform: ctx.platform,
    });
    if (!hasExecutable) {
      throw new StepError(`Main executable ${main} is not in the ZIP archive`, false);
    }
    const raw = typeof details.arguments === 'string' ? details.arguments.trim() : '';
    return isWindows(ctx)
      ? await runProgram(ctx, { ...windowsInvocation(program, raw), cwd: root })
      : await runProgram(ctx, { file: program, args: splitArguments(raw), cwd: root });
  } finally {
    if (details.cleanup !== false) {
      await cleanUp(root, hadRoot, before, written, ctx.stderr);
    }
  }
};

/** Removes the extract folder if this step created it, else only the names the archive added. */
async function cleanUp(
  root: string,
  hadRoot: boolean,
  before: Set<string>,
  written: Set<string>,
  log: (text: string) => void,
): Promise<void> {
  try {
    if (!hadRoot) {
      await rm(root, { recursive: true, force: true });
      return;
    }
    for (const name of [...written].filter((n) => !before.has(n))) {
      await rm(path.join(root, name), { recursive: true, force: true });
    }
  } catch (err) {
    log(`Cleanup of ${root} failed: ${errorText(err)}\n`);
  }
}
