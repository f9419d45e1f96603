/**
 * Text of `length` UTF-16 units, each as wide in UTF-8 as one can be (3
 * bytes: any character of the Basic Multilingual Plane past U+07FF, as
 * Chinese, Japanese or Korean text is). A limit in characters (JavaScript's
 * `length`) holds at most three bytes per unit, so this is its worst case.
 */
export function widest(length: number): string {
  return '語'.repeat(length);
}
