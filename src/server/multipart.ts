import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors';

/** What an upload form sent: its named text fields and its one file (absent when none came). */
export interface MultipartForm {
  fields: Record<string, string>;
  file: { name: string; data: Buffer } | undefined;
}

/**
 * Reads an upload form (KYC documents, statement imports, demo images): the text fields the route
 * names and one file in the `file` field; anything else is refused by name. The multipart limits
 * (set where the route registers @fastify/multipart) stop an oversized file while it streams:
 * that is a 413 in the route's own words (`tooLarge`: what is too large, and what to do).
 */
export async function readMultipart(
  request: FastifyRequest,
  options: { help: string; fields?: readonly string[]; tooLarge: { message: string; advice: string } },
): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', options.help);
  const fields: Record<string, string> = {};
  let file: MultipartForm['file'];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          throw badRequest(`${options.help} (one file per upload)`, [
            { field: part.fieldname, message: 'Send one file, in the "file" field' },
          ]);
        }
        file = { name: part.filename, data: await part.toBuffer() };
      } else if (options.fields?.includes(part.fieldname)) {
        fields[part.fieldname] = String(part.value);
      } else {
        throw badRequest(`Unknown field "${part.fieldname}"`, [
          { field: part.fieldname, message: `Unknown field "${part.fieldname}"` },
        ]);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      const { message, advice } = options.tooLarge;
      throw new AppError(413, 'FILE_TOO_LARGE', `${message}; ${advice}`, [{ field: 'file', message }]);
    }
    if (code === 'FST_FILES_LIMIT') throw badRequest(`${options.help} (one file per upload)`);
    throw badRequest(`The upload could not be read: ${options.help}`);
  }
  return { fields, file };
}
