/**
 * The body of a test-control (admin) request, shared by the emulator's and the BigQuery stand-in's
 * admin routes: JSON checked against a zod schema, an empty body read as `{}`, and a refusal in the
 * API's error envelope that names the operation and every field at fault.
 */
import type { FastifyRequest } from 'fastify';
import type * as z from 'zod';
import { ApiError } from './api-error';

export function parseAdminBody<T>(schema: z.ZodType<T>, request: FastifyRequest, operation: string): T {
  let json: unknown = {};
  const raw = typeof request.body === 'string' ? request.body.trim() : '';
  if (raw !== '') {
    try {
      json = JSON.parse(raw);
    } catch {
      throw new ApiError(400, operation, 'Admin request body is not valid JSON');
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
    throw new ApiError(400, operation, `Invalid admin request body: ${issues}`);
  }
  return parsed.data;
}
