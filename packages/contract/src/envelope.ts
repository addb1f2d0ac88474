import { z } from 'zod';

// docs/product/README.md#conventions — most responses have the shape {success, data, error};
// lists have data.data and data.pagination {page, limit, total, totalPages}.

export const FieldError = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

export const ApiErrorBody = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  fields: z.array(FieldError).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export function apiSuccess<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const Pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type Pagination = z.infer<typeof Pagination>;

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: Pagination });
}

export type ApiSuccess<T> = { success: true; data: T };
export type ApiResponse<T> = ApiSuccess<T> | ApiErrorBody;
export type ListData<T> = { data: T[]; pagination: Pagination };

export function paginate(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) };
}

export const MessageOnly = z.object({ message: z.string() });
