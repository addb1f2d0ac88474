import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import yazl from 'yazl';
import type { DeploymentStep } from '@outpost/contract/agent-protocol';
import type { AgentFileRef, Download, FetchFile, FileSource } from '../../src/steps/context';
import type { ProcessRequest, ProcessRunner } from '../../src/steps/process-runner';
import type { StepProgress } from '../../src/steps/run-deployment';

// Shared by the steps' tests: a temp folder per test, uploaded files served from it, archives
// written with yazl, and a runner that records commands instead of running them.

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'outpost-steps-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A fresh temp folder and file server for each test of the file (vitest hooks). */
export function useTempFiles(): { readonly dir: string; readonly files: FileServer } {
  let current: { dir: string; files: FileServer; cleanup: () => Promise<void> } | undefined;
  beforeEach(async () => {
    const { dir, cleanup } = await tempDir();
    current = { dir, cleanup, files: new FileServer(dir) };
  });
  afterEach(() => current?.cleanup());
  const now = () => {
    if (!current) {
      throw new Error('useTempFiles: read inside a test');
    }
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    get files() {
      return now().files;
    },
  };
}

export function step(
  order: number,
  type: string,
  details: Record<string, unknown>,
  extra: Partial<DeploymentStep> = {},
): DeploymentStep {
  return {
    stepOrder: order,
    stepName: `Step ${order}`,
    stepType: type,
    stepDetails: details,
    timeoutSeconds: 30,
    retryCount: 0,
    failDeploymentOnError: true,
    ...extra,
  };
}

export function command(steps: DeploymentStep[]) {
  return { kind: 'run_deployment' as const, jobId: 1, deviceDeploymentId: 7, packageName: 'Test', steps };
}

/** Uploaded files: writes them into `dir` and serves them by id, like the server would. */
export class FileServer {
  private readonly files = new Map<number, string>();
  private nextId = 1;
  constructor(private readonly dir: string) {}

  async add(
    name: string,
    content: Buffer | string,
    mode = 0o644,
  ): Promise<AgentFileRef & { sha256: string }> {
    const id = this.nextId++;
    const file = path.join(this.dir, `upload-${id}-${name}`);
    await writeFile(file, content, { mode });
    const sha256 = createHash('sha256').update(content).digest('hex');
    this.files.set(id, file);
    return { id, originalFilename: name, sha256 };
  }

  /** its bytes as the server would send them (the step library writes them where it wants) */
  readonly fetchFile: FetchFile = (ref) => {
    const file = this.files.get(ref.id);
    return file
      ? Promise.resolve({ body: createReadStream(file) })
      : Promise.reject(new Error(`no file ${ref.id}`));
  };
}

/** Where the step library puts a file of step `order`'s first attempt (`command()`'s deployment). */
export function stagedPath(workDir: string, name: string, order = 1, attempt = 1): string {
  return path.join(workDir, 'deployment-7', `step-${order}-attempt-${attempt}`, name);
}

/** A download that serves `content` for any URL, as from `finalUrl` (the URL itself by default). */
export function serve(content: string | Buffer, finalUrl?: string): Download {
  return (url): Promise<FileSource> =>
    Promise.resolve({
      body: (async function* () {
        await Promise.resolve(); // bytes arrive asynchronously, as from the network
        yield Buffer.from(content);
      })(),
      finalUrl: finalUrl ?? url,
    });
}

export type ZipEntry = { name: string; data?: string; mode?: number };

/**
 * A ZIP archive in memory. yazl refuses unsafe names, so an entry may give `rename`: it is
 * written under a harmless name of the same length, then the bytes are patched (names are not
 * covered by the CRC), which is how a hostile archive would look.
 */
export function makeZip(entries: ZipEntry[], rename: Record<string, string> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    zip.addBuffer(Buffer.from(e.data ?? ''), e.name, e.mode === undefined ? {} : { mode: e.mode });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => {
      let buf: Buffer = Buffer.concat(chunks);
      for (const [from, to] of Object.entries(rename)) {
        buf = replaceAll(buf, Buffer.from(from), Buffer.from(to));
      }
      resolve(buf);
    });
  });
}

function replaceAll(buf: Buffer, from: Buffer, to: Buffer): Buffer {
  let at = buf.indexOf(from);
  while (at >= 0) {
    to.copy(buf, at);
    at = buf.indexOf(from, at + from.length);
  }
  return buf;
}

/** Records every program a step would start; answers with `exitCode`. */
export function recordingRunner(exitCode = 0): {
  runner: ProcessRunner;
  calls: ProcessRequest[];
  lines: () => string[];
} {
  const calls: ProcessRequest[] = [];
  const runner: ProcessRunner = (request) => {
    calls.push(request);
    return Promise.resolve({ exitCode, timedOut: false, cancelled: false });
  };
  return { runner, calls, lines: () => calls.map((c) => [c.file, ...c.args].join(' ')) };
}

/** The reports, and the output of one step joined back together. */
export function reports() {
  const list: StepProgress[] = [];
  return {
    list,
    report: (p: StepProgress) => list.push(p),
    ends: () => list.filter((p) => p.status !== 'running' || p.exitCode !== undefined),
    output: (stepOrder: number, attempt = 1, stream: 'stdout' | 'stderr' = 'stdout') =>
      list
        .filter((p) => p.stepOrder === stepOrder && p.attempt === attempt && typeof p[stream] === 'string')
        .map((p) => p[stream])
        .join(''),
  };
}

export const noDownload = () => Promise.reject(new Error('no downloads in this test'));
