import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../contracts/errors';
import { findTextProblem } from '../../contracts/text';
import { AppError } from '../errors';

const PLACES = [
  ['params', 'path'],
  ['query', 'query'],
  ['body', 'body'],
] as const;

/**
 * Every route's path parameters, query and JSON body are checked against the shared text rule
 * (src/contracts/text.ts) before their schemas run, so a NUL or an unpaired surrogate is a 400
 * naming the field on every route, including the next module's, instead of a database failure.
 */
export function registerTextInputCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, place] of PLACES) {
      const problem = findTextProblem(request[part]);
      if (problem) {
        const message = `Invalid ${place}: ${problem.field}: ${problem.message}`;
        throw new AppError(400, ERROR_CODES.VALIDATION, message, [problem]);
      }
    }
  });
}
