/** A tenant id: lower-case letters, digits, `_` and `-`, starting with a letter or digit, at most 63 characters. */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** True when `value` is a well-formed tenant id. */
export function isValidTenantId(value: string): boolean {
  return TENANT_ID_PATTERN.test(value);
}
