import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7, validate, version } from 'uuid';

/**
 * Random bytes for ids, drawn from the OS 256 ids at a time: uuid's own
 * source asks for 16 bytes per id, one of the dearest steps of accepting a
 * request (as Node's randomUUID does, a pool amortises it).
 */
const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let poolOffset = pool.length;
/** uuid's v7 state (last millisecond and counter), kept here because uuid keeps none when given its random bytes. */
const v7State = { msecs: -Infinity, seq: 0 };

/**
 * A new time-ordered identifier (UUID v7), monotonic within this process as
 * uuid's own v7 is: within one millisecond the 31-bit counter it seeds from
 * the random bytes goes up by one (and the time by one when it wraps).
 */
export function newId(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const random = pool.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  const now = Date.now();
  if (now > v7State.msecs) {
    v7State.msecs = now;
    v7State.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    v7State.seq = (v7State.seq + 1) | 0;
    if (v7State.seq === 0) v7State.msecs += 1;
  }
  return uuidv7({ random, msecs: v7State.msecs, seq: v7State.seq });
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
