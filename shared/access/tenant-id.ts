/**
 * What a tenant id may look like: 1 to 63 characters, lower-case letters,
 * digits, `-` and `_`, starting with a letter or digit. No `#` or `/`, so an
 * id can never be read as a separator in a table key or a path.
 */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** True when `value` is a string that is a well-formed tenant id ({@link TENANT_ID_PATTERN}). */
export function isValidTenantId(value: unknown): value is string {
  return typeof value === 'string' && TENANT_ID_PATTERN.test(value);
}
