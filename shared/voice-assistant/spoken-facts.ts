import { groupedDigits } from '../platform/text';
/**
 * Facts of the brief as a text-to-speech voice should read them: dates in
 * words, large numbers grouped, currency codes named. Only the form
 * changes, never the value.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const CURRENCIES: Readonly<Record<string, string>> = {
  USD: 'US dollars',
  EUR: 'euros',
  GBP: 'pounds',
  CAD: 'Canadian dollars',
  AUD: 'Australian dollars',
};
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const AMOUNT_IN = /\b(\d[\d,.]*) (USD|EUR|GBP|CAD|AUD)\b/g;

/** `2026-12-05` as it is said: `December 5, 2026`; any other date as written. */
export function spokenDate(text: string): string {
  return text.trim().replace(ISO_DATE, (written, year: string, month: string, day: string) => {
    const name = MONTHS[Number(month) - 1];
    const date = Number(day);
    return name && date >= 1 && date <= 31 ? `${name} ${date}, ${year}` : written;
  });
}

/** `120400` as `120,400`; a figure that is not a plain number as written (underscores as spaces). */
export function spokenNumber(text: string): string {
  const trimmed = text.trim();
  return /^\d{4,15}(?:\.\d+)?$/.test(trimmed)
    ? trimmed.replace(/^\d+/, (digits) => groupedDigits(Number(digits)))
    : trimmed.replace(/_/g, ' ');
}

/** A currency code as it is said (`USD`: `US dollars`); an unknown one as written. */
export function spokenCurrency(code: string): string {
  return CURRENCIES[code.toUpperCase()] ?? code;
}

/** Free text of the brief with its ISO dates and currency codes said in words. */
export function spokenFacts(text: string): string {
  return spokenDate(text).replace(AMOUNT_IN, (_written, amount: string, code: string) => `${amount} ${spokenCurrency(code)}`);
}
