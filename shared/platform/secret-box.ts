import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Shortest service key accepted: 32 characters (a generated key has far more entropy per character than a passphrase). */
export const MIN_SERVICE_KEY_LENGTH = 32;

/** The version of the sealed format; a later key or algorithm gets a new one, and both are read during a change. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed value is bound to: the tenant whose key seals it, and what it is (its field), checked when it is opened. */
export interface SealContext {
  tenantId: string;
  /** What the value is, e.g. `crm:hubspot:access_token`: a value sealed as one thing never opens as another. */
  purpose: string;
}

/** A sealed value that does not open: another tenant's or purpose's, altered, or sealed with another service key. */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedValueError';
  }
}

/**
 * Port: seals secrets kept in the table (a tenant's CRM token), so an item
 * read by anyone without the service key (a backup, an export, a console)
 * holds no usable secret.
 */
export interface SecretBox {
  /** `v1.<iv>.<ciphertext>.<tag>` (base64url): AES-256-GCM under the tenant's key, the context as associated data. */
  seal(context: SealContext, plaintext: string): string;
  /** The plaintext of a sealed value; throws {@link SealedValueError} when it does not open in this context. */
  open(context: SealContext, sealed: string): string;
}

/**
 * A {@link SecretBox} over a service key: each tenant's key is derived with
 * HKDF-SHA256 (the service key, a fixed salt, the tenant id as info), so one
 * tenant's values never open with another's key, and the service key itself
 * never encrypts anything. Each value gets a fresh 96-bit IV; the tenant and
 * purpose are the associated data, so a value copied to another item fails
 * its tag.
 */
export function secretBox(serviceKey: string): SecretBox {
  if (serviceKey.length < MIN_SERVICE_KEY_LENGTH) {
    throw new RangeError(`The service key must be at least ${MIN_SERVICE_KEY_LENGTH} characters`);
  }
  const keys = new Map<string, Buffer>();
  const keyOf = (tenantId: string): Buffer => {
    let key = keys.get(tenantId);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', Buffer.from(serviceKey, 'utf8'), 'switchboard/secret-box/v1', `tenant:${tenantId}`, 32));
      keys.set(tenantId, key);
    }
    return key;
  };
  const aad = (context: SealContext) => Buffer.from(`${context.purpose}\u0000${context.tenantId}`, 'utf8');

  return {
    seal(context, plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyOf(context.tenantId), iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(context, sealed) {
      const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
      if (version !== VERSION || iv === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) {
        throw new SealedValueError('Not a sealed value of this service');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', keyOf(context.tenantId), Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(aad(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedValueError(
          `A sealed ${context.purpose} did not open: another tenant's, altered, or sealed with another service key`,
        );
      }
    },
  };
}
