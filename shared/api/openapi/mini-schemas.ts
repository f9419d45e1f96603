import * as z from 'zod/mini';

/**
 * What zod-to-openapi reads of a schema beyond its `def` and the global
 * registry: four methods and five properties of the chainable `zod`. A request schema a function
 * parses is `zod/mini` where its bundle has no other use for the chainable
 * API (zod/mini is a quarter of its size and builds schemas faster, which is
 * cold-start time), and mini schemas have none of them.
 */
const GENERATOR_METHODS = {
  /** Without arguments, the schema's metadata in the global registry (what `register(z.globalRegistry, …)` gave it). */
  meta(this: z.ZodMiniType, ...args: unknown[]) {
    if (args.length > 0) throw new Error('Documentation code only reads the metadata of a zod/mini schema');
    return z.globalRegistry.get(this);
  },
  isOptional(this: z.ZodMiniType) {
    return this.safeParse(undefined).success;
  },
  isNullable(this: z.ZodMiniType) {
    return this.safeParse(null).success;
  },
  unwrap(this: z.ZodMiniType) {
    return (this.def as { innerType?: z.ZodMiniType }).innerType;
  },
} as const;

interface CheckDef {
  check: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

/**
 * A schema's format and length bounds, from its own `def` (a format schema,
 * such as `z.iso.date()`, is its own first check) and its checks: what the
 * chainable `zod` derives for its `format`, `minLength` and `maxLength`.
 */
function bagOf(schema: z.ZodMiniType): { format?: string; minimum?: number; maximum?: number } {
  const def = schema._zod.def as { format?: unknown; checks?: readonly { _zod: { def: CheckDef } }[] };
  const bag: { format?: string; minimum?: number; maximum?: number } = typeof def.format === 'string' ? { format: def.format } : {};
  for (const check of def.checks ?? []) {
    const { check: kind, format, minimum, maximum } = check._zod.def;
    if (kind.endsWith('_format') && format !== undefined) bag.format ??= format;
    if (kind === 'min_length' && minimum !== undefined) bag.minimum = Math.max(bag.minimum ?? minimum, minimum);
    if (kind === 'max_length' && maximum !== undefined) bag.maximum = Math.min(bag.maximum ?? maximum, maximum);
  }
  return bag;
}

/** The properties the chainable `zod` sets on each schema, from its checks (`_zod.bag`) and its `def`. */
const GENERATOR_PROPERTIES: Record<string, (schema: z.ZodMiniType) => unknown> = {
  format: (schema) => bagOf(schema).format ?? null,
  minLength: (schema) => bagOf(schema).minimum ?? null,
  maxLength: (schema) => bagOf(schema).maximum ?? null,
  keyType: (schema) => (schema.def as { keyType?: unknown }).keyType,
  valueType: (schema) => (schema.def as { valueType?: unknown }).valueType,
};

/**
 * Gives every zod/mini schema type what the reference's generator reads
 * ({@link GENERATOR_METHODS}, {@link GENERATOR_PROPERTIES}), on their
 * prototypes, where a mini schema has none of its own. Documentation code
 * only (infra/api-docs): no function bundle imports this file. Idempotent.
 */
export function readableByGenerator(): void {
  for (const value of Object.values(z)) {
    if (typeof value !== 'function' || !('init' in value) || typeof value.prototype !== 'object') continue;
    const prototype = value.prototype as object;
    for (const [name, method] of Object.entries(GENERATOR_METHODS)) {
      if (!(name in prototype)) Object.defineProperty(prototype, name, { value: method, configurable: true, writable: true });
    }
    for (const [name, read] of Object.entries(GENERATOR_PROPERTIES)) {
      if (!(name in prototype))
        Object.defineProperty(prototype, name, {
          get(this: z.ZodMiniType) {
            return read(this);
          },
          configurable: true,
        });
    }
  }
}
