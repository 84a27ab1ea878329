import type { FieldValues, Resolver } from "react-hook-form";

/**
 * A form resolver whose schema loads when the form is first used (`preload` on focus) or at the
 * latest on the first submit, not with the page: zod and its resolver are about 25 KB gzipped, and
 * a visitor reads the form before filling it in (decision 102). A failed import is tried again.
 */
export function lazyResolver<TInput extends FieldValues, TOutput>(
  load: () => Promise<Resolver<TInput, unknown, TOutput>>,
): Resolver<TInput, unknown, TOutput> & { preload: () => void } {
  let pending: Promise<Resolver<TInput, unknown, TOutput>> | undefined;
  const get = () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
  const resolver: Resolver<TInput, unknown, TOutput> = async (values, context, options) => (await get())(values, context, options);
  return Object.assign(resolver, { preload: () => void get().catch(() => undefined) });
}
