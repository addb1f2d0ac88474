import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { StepError } from './context';
import { UnsafePathError, agentUid, preparePrivateFolders } from './private-files';

// The folders a deployment stages its files in (SECURITY.md "The agent's file-handling rules"):
// the agent's private work folder (the real agent: `<stateDir>/work`), in it a folder per
// deployment and one per step attempt, each created 0700 and checked (a link or a folder of
// another account is refused) before anything is written there. Without a work folder the
// deployment gets a fresh one with a random name in the temp folder, removed afterwards.

export type WorkFolderOptions = {
  /** the agent's private work folder; a fresh random one in the temp folder when absent */
  workDir?: string;
  deviceDeploymentId: number;
  platform: NodeJS.Platform;
  /** false: the fleet simulator; nothing is created or removed */
  usesDisk: boolean;
  /** Windows: limits a folder to SYSTEM and Administrators (the executor's icacls) */
  secureFolder?: (dir: string) => Promise<void>;
};

export type WorkFolders = {
  /** the package working directory (a step's default cwd) */
  workDir: string;
  /** the attempt's scratch folder, created private and checked; a StepError when refused */
  prepareScratch(stepOrder: number, attempt: number): Promise<string>;
  /** removes an attempt's scratch folder once it was prepared */
  removeScratch(dir: string): Promise<void>;
  /** removes the deployment's folder (or the random work folder) once it was prepared */
  close(): Promise<void>;
};

export async function openWorkFolders(options: WorkFolderOptions): Promise<WorkFolders> {
  const { usesDisk, platform } = options;
  // mkdtemp creates the folder 0700 with a random name and fails rather than reuse anything
  const ownTemp =
    options.workDir === undefined && usesDisk ? await mkdtemp(path.join(os.tmpdir(), 'outpost-work-')) : null;
  const workDir = options.workDir ?? ownTemp ?? path.join(os.tmpdir(), 'outpost-work');
  const deploymentFolder = `deployment-${options.deviceDeploymentId}`;
  const uid = agentUid(platform);
  const prepared = new Set<string>();
  let isSecured = false;

  async function prepareScratch(stepOrder: number, attempt: number): Promise<string> {
    const scratchName = `step-${stepOrder}-attempt-${attempt}`;
    if (!usesDisk) {
      return path.join(workDir, deploymentFolder, scratchName);
    }
    try {
      await preparePrivateFolders(workDir, [], uid);
      if (platform === 'win32' && !isSecured && options.secureFolder) {
        await options.secureFolder(workDir);
        isSecured = true;
      }
      const deploymentDir = await preparePrivateFolders(workDir, [deploymentFolder], uid);
      prepared.add(deploymentDir);
      const scratch = await preparePrivateFolders(workDir, [deploymentFolder, scratchName], uid);
      prepared.add(scratch);
      return scratch;
    } catch (err) {
      if (err instanceof UnsafePathError) {
        throw new StepError(err.message, false);
      }
      throw new StepError(`Could not prepare the agent's work folder ${workDir}: ${(err as Error).message}`);
    }
  }

  async function remove(dir: string): Promise<void> {
    if (prepared.delete(dir) || dir === ownTemp) {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  return {
    workDir,
    prepareScratch,
    removeScratch: remove,
    close: () => remove(ownTemp ?? path.join(workDir, deploymentFolder)),
  };
}
