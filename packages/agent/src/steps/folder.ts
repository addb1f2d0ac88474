import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StepHandler, StepOutcome } from './context';
import { StepError, errorText, isWindows, runProgram, windowsOnly } from './context';

/** The portal's permission words → icacls rights; (OI)(CI) lets files and subfolders inherit. */
const ICACLS_RIGHTS: Record<string, string> = {
  fullcontrol: 'F',
  modify: 'M',
  readandexecute: 'RX',
  read: 'R',
  write: 'W',
  listfoldercontents: 'RX',
};

/** "BUILTIN\Users:ReadAndExecute" lines → icacls /grant arguments. */
export function icaclsGrants(permissions: string): string[] {
  const grants: string[] = [];
  for (const line of permissions.split(/\r?\n/)) {
    const text = line.trim();
    if (text === '') {
      continue;
    }
    const at = text.lastIndexOf(':');
    const principal = text.slice(0, at).trim();
    const right =
      ICACLS_RIGHTS[
        text
          .slice(at + 1)
          .trim()
          .toLowerCase()
      ];
    if (at <= 0 || right === undefined) {
      throw new StepError(
        `Unknown permission in "${text}" (use FullControl, Modify, ReadAndExecute, ListFolderContents, Read or Write)`,
        false,
      );
    }
    grants.push('/grant', `${principal}:(OI)(CI)${right}`);
  }
  return grants;
}

// docs/product/packages.md#builder FOLDER — create the folder (parents optional); on Windows mark it hidden
// (attrib +h) and grant the permissions (icacls).
export const runFolderStep: StepHandler = async (details, ctx) => {
  const folder = typeof details.folder_path === 'string' ? details.folder_path.trim() : '';
  const permissions = typeof details.permissions === 'string' ? details.permissions.trim() : '';
  const isHidden = details.hidden === true;
  if (permissions !== '' && !isWindows(ctx)) {
    throw windowsOnly('Setting folder permissions');
  }
  const grants = permissions === '' ? [] : icaclsGrants(permissions);
  const createParents = details.create_parents !== false;
  if (!createParents) {
    const parent = path.dirname(folder);
    const exists = await stat(parent).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!exists) {
      throw new StepError(`The parent folder ${parent} does not exist (Create Parent Folders is off)`, false);
    }
  }
  try {
    await mkdir(folder, { recursive: true });
  } catch (err) {
    throw new StepError(`Could not create ${folder}: ${errorText(err)}`);
  }
  ctx.stdout(`Created ${folder}\n`);
  let outcome: StepOutcome = { status: 'completed', exitCode: 0, rebootRequired: false };
  if (isHidden && isWindows(ctx)) {
    outcome = await runProgram(ctx, { file: 'attrib.exe', args: ['+h', folder], cwd: ctx.workDir });
  } else if (isHidden) {
    ctx.stdout('The hidden attribute applies on Windows only; skipped\n');
  }
  if (outcome.status === 'completed' && grants.length > 0) {
    outcome = await runProgram(ctx, { file: 'icacls.exe', args: [folder, ...grants], cwd: ctx.workDir });
  }
  return outcome;
};
