import { v7 as uuidv7, validate, version } from 'uuid';

/** A new time-ordered identifier (UUID v7). */
export function newId(): string {
  return uuidv7();
}

/** True for any RFC 4122/9562 UUID string (any version). */
export function isUuid(value: string): boolean {
  return validate(value) && version(value) >= 1;
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The stored form of an id. UUIDs compare case-insensitively, so a
 * UUID-shaped id is kept in lower case; any other id is kept as given.
 */
export function canonicalId(value: string): string {
  return UUID_SHAPE.test(value) ? value.toLowerCase() : value;
}
