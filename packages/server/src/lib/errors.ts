// Errors a service throws; the errors plugin turns them into the response envelope.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code);
export const unauthorized = (message: string, code = 'UNAUTHORIZED') => new HttpError(401, message, code);
export const forbidden = (message: string, code = 'FORBIDDEN') => new HttpError(403, message, code);
export const notFound = (message: string, code = 'NOT_FOUND') => new HttpError(404, message, code);
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, message, code);
