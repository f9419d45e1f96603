import { v7 as uuidv7, validate, version } from 'uuid';

/** A new time-ordered identifier (UUID v7). */
export function newId(): string {
  return uuidv7();
}

/** True for any RFC 4122/9562 UUID string (any version). */
export function isUuid(value: string): boolean {
  return validate(value) && version(value) >= 1;
}
