import * as z from 'zod/mini';

type JsonSchema = Record<string, unknown>;

const schemaMapKeywords = ['properties', '$defs', 'definitions'] as const;
const schemaListKeywords = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const schemaKeywords = ['items', 'not', 'additionalItems', 'contains'] as const;

/**
 * The JSON schema OpenAI's strict structured output accepts, built from a zod
 * schema: every object lists all its properties in `required` and forbids
 * others, and `$schema` is dropped. Schemas with optional fields are not
 * supported (strict mode has no optional properties); use nullable fields.
 */
export function toStrictJsonSchema(schema: z.core.$ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema) as JsonSchema;
  return strictNode(rest);
}

function strictNode(node: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...node };
  for (const key of schemaMapKeywords) {
    const map = node[key];
    if (isSchema(map)) {
      out[key] = Object.fromEntries(Object.entries(map).map(([name, child]) => [name, isSchema(child) ? strictNode(child) : child]));
    }
  }
  for (const key of schemaListKeywords) {
    const list = node[key];
    if (Array.isArray(list)) {
      out[key] = list.map((child: unknown) => (isSchema(child) ? strictNode(child) : child));
    }
  }
  for (const key of schemaKeywords) {
    const child = node[key];
    if (isSchema(child)) out[key] = strictNode(child);
  }
  if (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))) {
    const properties = isSchema(out.properties) ? out.properties : {};
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
