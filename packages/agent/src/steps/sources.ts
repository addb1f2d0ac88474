import type { FileSource, StepContext } from './context';
import { AgentFileRef, StepError, errorText } from './context';
import { IntegrityError, UnsafePathError, writePrivateFile } from './private-files';
import type { FileBody, WrittenFile } from './private-files';

// Where a step's files come from and how they land on disk: an uploaded file from the server or
// an EXE/MSI download, written by the step library itself into the attempt's private scratch
// folder and verified while written (SECURITY.md "The agent's file-handling rules").

/** A file name safe on every platform, keeping the extension Windows needs (.exe, .ps1 …). */
export function localFileName(original: string, fallback: string): string {
  const base = original.split(/[\\/]/).pop() ?? '';
  const name = base
    .replace(/[^A-Za-z0-9._ -]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  return name === '' ? fallback : name.slice(-200);
}

async function discard(source: FileSource): Promise<void> {
  await source.cancel?.().catch(() => undefined);
}

/** Writes a source into the scratch folder (private-files.ts); the failures in the log's words. */
async function writeSource(
  ctx: StepContext,
  source: FileSource,
  name: string,
  options: { expectedSha256?: string; isExecutable?: boolean; couldNot: string },
): Promise<WrittenFile> {
  try {
    return await writePrivateFile(ctx.scratchDir, name, source.body, {
      signal: ctx.signal,
      expectedSha256: options.expectedSha256,
      isExecutable: options.isExecutable,
      platform: ctx.platform,
    });
  } catch (err) {
    await discard(source);
    if (err instanceof IntegrityError || err instanceof UnsafePathError) {
      throw err;
    }
    throw new StepError(`${options.couldNot}: ${errorText(err)}`);
  }
}

/**
 * A step's uploaded file, written into the scratch folder and checked against its sha256 (the
 * reference's, else the server's header; with neither it is refused) while it is written;
 * resolves to its local path. `isExecutable`: the execute bit is set before the file is closed.
 */
export async function fetchVerified(
  ctx: StepContext,
  raw: unknown,
  label: string,
  isExecutable = false,
): Promise<string> {
  const parsed = AgentFileRef.safeParse(raw);
  if (!parsed.success) {
    throw new StepError(`${label}: no uploaded file`, false);
  }
  const ref = parsed.data;
  const couldNot = `Could not download ${ref.originalFilename}`;
  let source: FileSource;
  try {
    source = await ctx.fetchFile(ref, ctx.signal);
  } catch (err) {
    throw new StepError(`${couldNot}: ${errorText(err)}`);
  }
  const expected = ref.sha256 ?? source.sha256;
  if (expected === undefined || expected === '') {
    await discard(source);
    throw new StepError(`${couldNot}: the server gave no sha256 checksum for it, so it cannot be verified`);
  }
  const name = localFileName(ref.originalFilename, `file-${ref.id}`);
  try {
    const written = await writeSource(ctx, source, name, {
      expectedSha256: expected,
      isExecutable,
      couldNot,
    });
    return written.path;
  } catch (err) {
    if (err instanceof IntegrityError) {
      throw new StepError(
        ref.sha256 === undefined
          ? `${couldNot}: it does not match its sha256 checksum; not used`
          : `${ref.originalFilename} failed its integrity check (sha256 mismatch); not used`,
      );
    }
    throw err;
  }
}

/** The EXE/MSI step's Expected SHA-256 (lower case), or undefined when it gives none. */
function expectedSha256(details: Record<string, unknown>): string | undefined {
  const value = typeof details.sha256 === 'string' ? details.sha256.trim().toLowerCase() : '';
  return value === '' ? undefined : value;
}

/**
 * An EXE or MSI download from its URL. Without an Expected SHA-256 only https:// is accepted,
 * also after redirects (docs/architecture.md "URL sources"); the hash of the bytes written is
 * recorded in the step log either way.
 */
async function downloadVerified(
  ctx: StepContext,
  details: Record<string, unknown>,
  defaultName: string,
  isExecutable: boolean,
  extensions: readonly string[] | undefined,
): Promise<string> {
  const url = typeof details.url === 'string' ? details.url : '';
  const expected = expectedSha256(details);
  const couldNot = `Could not download ${url}`;
  let source: FileSource;
  try {
    source = await ctx.download(url, ctx.signal);
  } catch (err) {
    throw new StepError(`${couldNot}: ${errorText(err)}`);
  }
  const finalUrl = source.finalUrl ?? url;
  if (expected === undefined && !finalUrl.toLowerCase().startsWith('https://')) {
    await discard(source);
    throw new StepError(
      `${couldNot}: it came from ${finalUrl}, not an https:// address, and the step gives no Expected SHA-256 to check it against; not run`,
      false,
    );
  }
  try {
    const name = downloadName(url, source, defaultName, extensions);
    const written = await writeSource(ctx, source, name, {
      expectedSha256: expected,
      isExecutable,
      couldNot,
    });
    ctx.stdout(
      `Downloaded ${url}: ${written.size} bytes, sha256 ${written.sha256}${expected === undefined ? '' : ' (matches the Expected SHA-256)'}\n`,
    );
    return written.path;
  } catch (err) {
    if (err instanceof IntegrityError) {
      throw new StepError(
        `The download from ${url} failed its integrity check: its sha256 is ${err.actual}, the step expects ${err.expected}; not run`,
      );
    }
    throw err;
  }
}

/** An EXE or MSI source: the uploaded file or a download from its URL, verified as written. */
export async function resolveSource(
  ctx: StepContext,
  details: Record<string, unknown>,
  label: string,
  defaultName: string,
  isExecutable = false,
  /** the extensions Windows runs this type of file by (the first is added when none is there) */
  extensions?: readonly string[],
): Promise<string> {
  if (details.source_type === 'url') {
    return downloadVerified(ctx, details, defaultName, isExecutable, extensions);
  }
  return fetchVerified(ctx, details.file, label, isExecutable);
}

/** The last path segment of a URL, reduced to safe characters. */
export function fileNameFromUrl(url: string, fallback: string): string {
  let name: string;
  try {
    name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    name = '';
  }
  name = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return name === '' ? fallback : name;
}

/**
 * The name a download is saved under: the first of the response's Content-Disposition file name,
 * the URL asked for and the URL it came from after redirects that ends in an extension Windows
 * runs this type of file by; else the first name there is, with the type's extension added
 * (`…/download/latest` is saved as `latest.exe`). Without `extensions` (elsewhere than Windows):
 * the Content-Disposition name or the URL's.
 */
export function downloadName(
  url: string,
  source: Pick<FileSource, 'fileName' | 'finalUrl'>,
  fallback: string,
  extensions?: readonly string[],
): string {
  const safe = (name: string | undefined) =>
    (name ?? '').replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  const candidates = [
    safe(source.fileName),
    fileNameFromUrl(url, ''),
    source.finalUrl ? fileNameFromUrl(source.finalUrl, '') : '',
  ].filter((n) => n !== '');
  if (!extensions || extensions.length === 0) {
    return candidates[0] ?? fallback;
  }
  const runnable = candidates.find((n) => extensions.some((e) => n.toLowerCase().endsWith(e)));
  return runnable ?? `${candidates[0] ?? fallback.replace(/\.[^.]*$/, '')}${extensions[0]}`;
}

/** The file name of a Content-Disposition header (filename*=UTF-8'' first), or undefined. */
export function contentDispositionName(header: string | null): string | undefined {
  if (!header) {
    return undefined;
  }
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim()).split(/[\\/]/).pop() || undefined;
    } catch {
      // a malformed extended name: the plain one, if any
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const value = (plain?.[2] ?? plain?.[1])?.trim();
  return value ? value.split(/[\\/]/).pop() || undefined : undefined;
}

/** Writes an inline script into the scratch folder (a new private file, never an existing one). */
export async function writeScript(ctx: StepContext, name: string, content: FileBody): Promise<string> {
  const written = await writePrivateFile(ctx.scratchDir, name, content, { signal: ctx.signal });
  return written.path;
}
