import type { Logger } from '#server/logger.ts';

/**
 * What `work` answers, once it is done, after a line in the request's log (with its request id):
 * the staff and uploader actions worth finding later. `fields` may read the answer.
 */
export async function logged<T>(
  logger: Logger,
  message: string,
  work: Promise<T>,
  fields: (answer: T) => Record<string, unknown>,
): Promise<T> {
  const answer = await work;
  logger.info(message, fields(answer));
  return answer;
}
