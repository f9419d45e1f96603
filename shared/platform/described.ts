import * as z from 'zod/mini';

/**
 * A zod/mini schema with its description for the API reference, as
 * `.meta()` of the chainable zod gives it: a clone of the schema (its
 * parent the original), registered with the metadata in zod's global
 * registry, where the reference's generator reads it.
 */
export function described<T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}
