import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Longest phone number read; longer text is refused before it is parsed. */
const MAX_PHONE_LENGTH = 32;

/**
 * True for a phone number written in E.164 (`+` and the digits of a valid
 * number of its country, nothing else), as libphonenumber-js reads it with
 * its full metadata (each country's number patterns, not only lengths).
 * The API reads this module on first use (schema.ts): the metadata is 190 KiB.
 */
export function isE164PhoneNumber(value: string): boolean {
  if (value.length > MAX_PHONE_LENGTH || !value.startsWith('+')) return false;
  const parsed = parsePhoneNumberFromString(value);
  return parsed !== undefined && parsed.isValid() && parsed.number === value;
}
