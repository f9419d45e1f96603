/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

const NUMERIC = /^[-+]?[\d.,]+( ?[%×a-zA-Z/]*)?$/;

/** A Markdown table (numbers right-aligned, text left-aligned) that can be pasted into docs/performance.md as it is. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index]!.length)));
  const right = header.map((_, index) => rows.length > 0 && rows.every((row) => NUMERIC.test(row[index]!)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, index) => (right[index] ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((width, index) => (right[index] ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
