import { sourceComments } from '../support/source-comments';

/** The comment lexer the documentation checks read code with: comments only, never the inside of a string or a pattern. */
describe('sourceComments', () => {
  const texts = (source: string) => sourceComments(source).map((comment) => comment.text);

  it('finds line and block comments with their offsets, a line comment without its line break', () => {
    const source = 'const a = 1; // one\r\n/** two */\nlet b = a / 2; /* three */ // four';
    expect(sourceComments(source)).toEqual([
      { pos: 13, text: '// one' },
      { pos: 21, text: '/** two */' },
      { pos: 47, text: '/* three */' },
      { pos: 59, text: '// four' },
    ]);
  });

  it('skips strings, template literals with nested expressions, and regular expressions', () => {
    const source = [
      "const url = 'https://example.com/*x'; // a",
      'const path = "docs//api.md";',
      'const t = `see ${`inner // ${"}"} still` + {}.x} // not yet` ; /* b */',
      'const re = /\\/\\/ [/*] x/g.test(s); // c',
      'function f(s) { return /\\/*/.test(s) ? s.length / 2 / 3 : (s) / 4; } // d',
      'const ratio = (a) / b / c; // e',
      '#hash',
    ].join('\n');
    expect(texts(source)).toEqual(['// a', '/* b */', '// c', '// d', '// e']);
  });

  it('reads past a shebang, and keeps an unterminated block comment to the end', () => {
    expect(texts('#!/usr/bin/env node\n// shown\nx(); /* open')).toEqual(['// shown', '/* open']);
  });
});
