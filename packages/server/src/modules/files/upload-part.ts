import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { textProblem } from '@outpost/contract/input';
import { inputMessages } from '@outpost/contract/messages';
import { multipartClientError } from '../../plugins/errors';
import { HttpError, badRequest } from '../../lib/errors';

// The multipart parser (busboy) raises plain errors for whatever a client can break: a boundary
// it cannot use, a form cut short, a part header it cannot read. Every error it raises, on the
// request or on the file's stream, is the client's request: a 400 UPLOAD_INVALID, never a 500.
// File system errors (they carry a syscall) and the parser's own 4xx (limits) keep their status.
// Part headers reach the database (the file's name and content type), so they obey the input
// rules of every JSON body too: no NUL, no unpaired surrogate (SECURITY.md R2-11).

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The 400 for an error the multipart parser raised (others are returned unchanged). */
export function asUploadError(err: unknown): unknown {
  if (err instanceof HttpError || !(err instanceof Error) || 'syscall' in err) {
    return err;
  }
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status < 500) {
    return err;
  }
  return badRequest(multipartClientError(err) ?? inputMessages.uploadUnreadable, 'UPLOAD_INVALID');
}

/** The first part of the upload; a request the parser cannot read is a 400. */
export async function firstPart(request: FastifyRequest): Promise<MultipartFile | undefined> {
  try {
    return await request.file();
  } catch (err) {
    throw asUploadError(err);
  }
}

/** Refuses (400) a part whose field name, file name or content type holds text no column stores. */
export function checkPartHeaders(part: MultipartFile): void {
  const headers = { name: part.fieldname, filename: part.filename, 'content-type': part.mimetype };
  for (const [name, value] of Object.entries(headers)) {
    const problem = typeof value === 'string' ? textProblem(value) : null;
    if (problem) {
      part.file.resume();
      throw badRequest(inputMessages.uploadMalformed(`the part header ${name} ${problem}`), 'UPLOAD_INVALID');
    }
  }
}

/** Runs `consume` over the part; an error the parser raised on the file's stream is a 400. */
export async function withPartErrors<T>(part: MultipartFile, consume: () => Promise<T>): Promise<T> {
  const raised = new WeakSet<object>();
  const record = (err: unknown) => {
    if (isObject(err)) {
      raised.add(err);
    }
  };
  part.file.on('error', record);
  try {
    return await consume();
  } catch (err) {
    throw isObject(err) && raised.has(err) ? asUploadError(err) : err;
  } finally {
    part.file.off('error', record);
  }
}
