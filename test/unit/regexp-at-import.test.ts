import { resolve } from 'node:path';
import { findInFunctionSources } from '../support/source-files';
import ts from 'typescript';

/**
 * No regular expression literal in the code a function loads uses a Unicode
 * property class (`\p{L}`, `\P{…}`). V8 checks the syntax of every literal
 * while it parses the module, even one inside a function that never runs,
 * and for these classes that means building their character sets from ICU:
 * valgrind counted 2 to 3.5 M instructions a literal (five such literals of
 * shared/platform/contacts.ts: 16.5 M more than an empty module; the same
 * five built with `new RegExp` inside `lazy`, shared/platform/memo.ts:
 * nothing until a request runs them). Such a pattern is written
 * `lazy(() => new RegExp(String.raw`…`, 'u'))`.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');

/** The regular expression literals of `source` with a Unicode property class, as `file:line /…/flags`. */
function propertyClassLiterals(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral && /\\[pP]\{/.test(node.getText())) {
      const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${file}:${line + 1} ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

describe('Unicode property classes at import', () => {
  it('finds such a literal anywhere, a function body included, and leaves strings and other literals alone', () => {
    const source = [
      'const WORDS = /[\\p{L}\\p{N}]+/gu;',
      'function letters(text: string) { return text.match(/\\P{L}+/gu); }',
      "const built = () => new RegExp(String.raw`[\\p{L}]`, 'u');",
      'const plain = /[a-z]+/g;',
      "const text = '/\\\\p{L}/u';",
    ].join('\n');
    expect(propertyClassLiterals('example.ts', source)).toEqual(['example.ts:1 /[\\p{L}\\p{N}]+/gu', 'example.ts:2 /\\P{L}+/gu']);
  });

  it('is never written as a literal in shared/ or functions/', () => {
    // Only files that hold `\p{` or `\P{` at all are parsed.
    const { files, found } = findInFunctionSources(ROOT, /\\[pP]\{/, propertyClassLiterals);
    expect(files).toBeGreaterThan(200);
    expect(found).toEqual([]);
  });
});
