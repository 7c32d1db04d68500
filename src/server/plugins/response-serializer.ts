import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

/**
 * Response bodies are checked against their route's zod schema (unknown keys are dropped, so a
 * field such as a device's secret key can never leak) with `safeParse`, not the type provider's
 * default `safeEncode`: our response schemas have no codecs or transforms, so both give the same
 * body, but parsing runs zod's compiled fast path, about five times quicker on a 52-row quote
 * (decision 007).
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof $ZodType))
    throw new Error(`Response schema of ${method} ${url} is not a zod schema`);
  return (data) => {
    const result = safeParse(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
