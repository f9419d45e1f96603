import * as z from 'zod';

/** Chainable constructors by zod's `def.type`, for the kinds of `zod/mini` schema the reference meets. */
const CLASSIC_OF_TYPE = {
  string: z.ZodString,
  number: z.ZodNumber,
  boolean: z.ZodBoolean,
  literal: z.ZodLiteral,
  enum: z.ZodEnum,
  object: z.ZodObject,
  array: z.ZodArray,
  record: z.ZodRecord,
  optional: z.ZodOptional,
  nullable: z.ZodNullable,
  default: z.ZodDefault,
  union: z.ZodUnion,
  pipe: z.ZodPipe,
  transform: z.ZodTransform,
  unknown: z.ZodUnknown,
} as unknown as Readonly<Record<string, new (def: never) => z.ZodType>>;

/** The def's child schemas, each replaced by `convert`'s answer. */
function withChildren(def: Record<string, unknown>, convert: (schema: z.core.$ZodType) => z.ZodType): Record<string, unknown> {
  const converted: Record<string, unknown> = { ...def };
  for (const key of ['innerType', 'element', 'keyType', 'valueType', 'in', 'out', 'catchall'] as const) {
    if (def[key]) converted[key] = convert(def[key] as z.core.$ZodType);
  }
  if (def.shape) {
    converted.shape = Object.fromEntries(Object.entries(def.shape as z.core.$ZodShape).map(([name, field]) => [name, convert(field)]));
  }
  if (Array.isArray(def.options)) converted.options = (def.options as z.core.$ZodType[]).map(convert);
  return converted;
}

/**
 * A `zod/mini` schema as the chainable kind the reference generator reads
 * (it calls `.meta()`, `.isOptional()`, …): the same def, checks and
 * metadata, children converted alike. Schemas parsed on a cold start the
 * caller waits for are written in `zod/mini` (the status webhook's form);
 * this is how the reference still describes the very schema the handler
 * parses. A chainable schema comes back as it is.
 */
export function classicOf(schema: z.core.$ZodType): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const Classic = CLASSIC_OF_TYPE[def.type];
  if (!Classic) throw new Error(`classicOf: no chainable zod kind for a "${def.type}" schema`);
  const classic = new Classic(withChildren(def, classicOf) as never);
  const metadata = z.globalRegistry.get(schema);
  if (metadata) z.globalRegistry.add(classic, metadata);
  return classic;
}
