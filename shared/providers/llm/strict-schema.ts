import * as z from 'zod/mini';

type JsonSchema = Record<string, unknown>;

/**
 * The JSON schema OpenAI's strict structured output accepts, built from a zod
 * schema: every object lists all its properties in `required` and forbids
 * others, and each schema's metadata (its description) is kept. Schemas with
 * optional fields are not supported (strict mode has no optional
 * properties); use nullable fields.
 *
 * Written here rather than taken from zod's `toJSONSchema`: its converter
 * (about 20 KiB) would land in the zod chunk every function loads at cold
 * start, since esbuild places a module by the files that reach it, and
 * zod/mini's entry re-exports it. This covers what a model's answer is made
 * of (objects, strings, numbers, booleans, string enums, arrays with an
 * exact length, nullable values) and throws, naming the kind, on anything
 * else; test/unit/strict-schema.test.ts holds every answer schema of the
 * service equal to zod's own conversion.
 */
export function toStrictJsonSchema(schema: z.core.$ZodType): JsonSchema {
  const { id: _id, ...meta } = z.globalRegistry.get(schema) ?? {};
  return { ...jsonOf(schema), ...meta };
}

function jsonOf(schema: z.core.$ZodType): JsonSchema {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
      withoutChecks(def);
      return { type: def.type };
    case 'enum': {
      const values = Object.values((def as z.core.$ZodEnumDef).entries);
      if (values.length === 0 || !values.every((value) => typeof value === 'string'))
        throw new Error('toStrictJsonSchema: only enums of strings are supported');
      return { type: 'string', enum: values };
    }
    case 'nullable': {
      // A bare primitive becomes a list of types, as zod writes it; anything else a choice of it or null.
      const inner = toStrictJsonSchema((def as z.core.$ZodNullableDef).innerType);
      const barePrimitive = Object.keys(inner).length === 1 && typeof inner.type === 'string';
      return barePrimitive ? { type: [inner.type, 'null'] } : { anyOf: [inner, { type: 'null' }] };
    }
    case 'array': {
      const array = def as z.core.$ZodArrayDef;
      return { type: 'array', items: toStrictJsonSchema(array.element), ...arrayLength(array) };
    }
    case 'object': {
      const object = def as z.core.$ZodObjectDef;
      const properties = Object.fromEntries(Object.entries(object.shape).map(([key, field]) => [key, toStrictJsonSchema(field)]));
      return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    }
    default:
      throw new Error(`toStrictJsonSchema: a ${def.type} schema is not supported in a model's answer`);
  }
}

/** `minItems` and `maxItems` of an array whose one check is an exact length. */
function arrayLength(def: z.core.$ZodArrayDef): JsonSchema {
  const length: JsonSchema = {};
  for (const check of def.checks ?? []) {
    const checkDef = check._zod.def as z.core.$ZodCheckLengthEqualsDef;
    if (checkDef.check !== 'length_equals') throw new Error(`toStrictJsonSchema: the ${checkDef.check} check is not supported`);
    length.minItems = checkDef.length;
    length.maxItems = checkDef.length;
  }
  return length;
}

/** Throws when a primitive carries a check (a length, a pattern): strict answers are sent none. */
function withoutChecks(def: z.core.$ZodTypeDef): void {
  const check = def.checks?.[0];
  if (check) throw new Error(`toStrictJsonSchema: the ${check._zod.def.check} check of a ${def.type} is not supported`);
}
