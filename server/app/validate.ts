import type { z } from 'zod';
import { AppError } from './errors.ts';

/** Parses input with a contract schema; failure is a 400 VALIDATION_FAILED naming each field. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new AppError('VALIDATION_FAILED', {
    issues: result.error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message })),
  });
}
