import { resolve } from 'node:path';
import { findInFunctionSources } from '../support/source-files';
import ts from 'typescript';

/**
 * No module a function loads builds an Intl object or calls a locale method
 * while it is imported: the first such call in a process starts ICU, which
 * measured about as much work as the rest of an API function's cold start
 * (valgrind's instruction count of a bundle importing the init floor and
 * one `new Intl.DateTimeFormat`: 384 M against the floor's 263 M; the same
 * with one `toLocaleString('en-US')`: 387 M). Built on first use
 * (`lazy`, shared/platform/memo.ts) or written without Intl
 * (`groupedDigits`, shared/platform/text.ts), it costs only the requests
 * that need it.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const LOCALE_METHODS = new Set(['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString', 'localeCompare']);

/** `Intl.X(…)`, `new Intl.X(…)` and `….toLocaleString(…)`-like calls outside any function body, as `file:line text`. */
function intlCallsAtImport(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node, inFunction: boolean): void => {
    const inside = inFunction || ts.isFunctionLike(node);
    if (!inside && (ts.isCallExpression(node) || ts.isNewExpression(node))) {
      const callee = node.expression;
      const intl = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'Intl';
      const locale = ts.isPropertyAccessExpression(callee) && LOCALE_METHODS.has(callee.name.text);
      if (intl || locale) {
        const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1} ${node.getText().slice(0, 60)}`);
      }
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(sourceFile, false);
  return found;
}

describe('Intl at import', () => {
  it('finds a module-level Intl call, and none inside a function', () => {
    const source = [
      "const format = new Intl.DateTimeFormat('en-US');",
      "const text = `${(4000).toLocaleString('en-US')}`;",
      "const later = () => new Intl.DisplayNames(['en'], { type: 'language' });",
      'function sorted(a: string[]) { return a.sort((x, y) => x.localeCompare(y)); }',
    ].join('\n');
    expect(intlCallsAtImport('example.ts', source)).toEqual([
      "example.ts:1 new Intl.DateTimeFormat('en-US')",
      "example.ts:2 (4000).toLocaleString('en-US')",
    ]);
  });

  it('is never called while a module of shared/ or functions/ is imported', () => {
    // Only files that name Intl or a locale method are parsed (a few dozen of hundreds).
    const { files, found } = findInFunctionSources(ROOT, /Intl\.|\.toLocale|\.localeCompare/, intlCallsAtImport);
    expect(files).toBeGreaterThan(200);
    expect(found).toEqual([]);
  });
});
