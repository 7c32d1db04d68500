import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * A zodResolver whose schema — and zod itself, about 22 KB gzipped — is loaded on first use
 * instead of with the page, so the sign-in page stays inside its first-load budget. Call
 * `preload()` when the user starts on the form (focus) so validation is ready before the first blur.
 */
export function lazyZodResolver<TInput extends FieldValues, TOutput>(
  loadSchema: () => Promise<ZodType<TOutput, TInput>>,
): { resolver: Resolver<TInput, unknown, TOutput>; preload: () => void } {
  let loading: Promise<Resolver<TInput, unknown, TOutput>> | null = null;
  const load = () => {
    loading ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as Resolver<TInput, unknown, TOutput>,
    );
    loading.catch(() => {
      loading = null; // A failed chunk load is retried on the next validation.
    });
    return loading;
  };
  return {
    resolver: async (values, context, options) => (await load())(values, context, options),
    preload: () => {
      load().catch(() => undefined);
    },
  };
}
