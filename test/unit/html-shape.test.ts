import fc from 'fast-check';
import { parseHTML } from 'linkedom';
import { measureHtml, nestingWeight, type HtmlShape, type HtmlShapeLimits } from '../../shared/providers/web/html-shape';

const UNBOUNDED: HtmlShapeLimits = {
  maxElements: Number.MAX_SAFE_INTEGER,
  maxDepth: Number.MAX_SAFE_INTEGER,
  maxNesting: Number.MAX_SAFE_INTEGER,
};

interface DomNode {
  nodeType: number;
  localName?: string;
  data?: string;
  childNodes: ArrayLike<DomNode>;
}

/** Elements whose text the scan skips as raw text (the tokenizer reads it as such). */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

/** The counts of the DOM linkedom builds: what the scan must predict without building it. */
function domShape(html: string): Omit<HtmlShape, 'over'> {
  const { document } = parseHTML(html);
  const shape = { elements: 0, maxDepth: 0, nesting: 0, textNesting: 0 };
  const walk = (parent: DomNode, depth: number, raw: boolean) => {
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === 3 && !raw) shape.textNesting += node.data!.length * depth;
      if (node.nodeType !== 1) continue;
      shape.elements += 1;
      shape.nesting += depth + 1;
      shape.maxDepth = Math.max(shape.maxDepth, depth + 1);
      walk(node, depth + 1, raw || RAW_TEXT.has(node.localName!.toLowerCase()));
    }
  };
  walk(document, 0, false);
  return shape;
}

const measure = (html: string) => measureHtml(html, UNBOUNDED);

describe('measureHtml', () => {
  it('counts elements, the deepest nesting, the sum of depths and of text characters times their depth', () => {
    expect(measure('<html><body><div><p>a</p><p>bc</p></div>\n</body></html>')).toEqual({
      elements: 5,
      maxDepth: 4,
      nesting: 1 + 2 + 3 + 4 + 4,
      textNesting: 4 + 2 * 4 + 2,
    });
  });

  it('weighs 32 characters of text as one element at their depth', () => {
    expect(nestingWeight({ nesting: 100, textNesting: 64 * 5 })).toBe(110);
  });

  it.each([
    ['void elements never open', '<div><img src=a><br><input>text</div>', { elements: 4, maxDepth: 2 }],
    ['unclosed list items close each other', '<ul><li>a<li>b<li>c</ul>', { elements: 4, maxDepth: 2 }],
    ['a block closes an open paragraph', '<p>one<div>two</div><p>three<p>four', { elements: 4, maxDepth: 1 }],
    ['table cells and rows close their siblings', '<table><tr><td>a<td>b<tr><td>c</table>', { elements: 6, maxDepth: 3 }],
    ['an end tag closes up to its element', '<div><span><b>x</div><p>y', { elements: 4, maxDepth: 3 }],
    ['a stray end tag closes nothing', '<div></span></b><p>x</p></div>', { elements: 2, maxDepth: 2 }],
    ['a stray </p> and </br> make elements', '<div></p></br></div>', { elements: 3, maxDepth: 2 }],
    ['/> closes nothing in HTML', '<div/><div/><div/>', { elements: 3, maxDepth: 3 }],
    ['/> closes inside svg and math', '<svg><path/><rect/><g><circle/></g></svg><p>x', { elements: 6, maxDepth: 3 }],
    [
      'comments, declarations and CDATA hide their tags',
      '<!doctype html><!-- <div><div> --><![CDATA[<div>]]><?xml <div>?><p>x',
      { elements: 1, maxDepth: 1 },
    ],
    [
      'script, style, title, textarea and xmp are raw text',
      '<script>"<div>"</script><style>a{}</style><title><b></title><textarea><i></textarea><xmp><u></xmp>',
      { elements: 5, maxDepth: 1 },
    ],
    ['a quoted attribute may hold > and <', '<div title="a > b <div>" data-x=\'<p>\'><p>x</p></div>', { elements: 2, maxDepth: 2 }],
    ['tag names are case-insensitive', '<DIV><Li>a<LI>b</div>', { elements: 3, maxDepth: 2 }],
    ['a tag cut off at the end makes no element', '<div><p', { elements: 1, maxDepth: 1 }],
    ['text counts at its depth, </> and a stray < included', '<div><p>ab</> < c</p>d</div>', { textNesting: 'ab</> < c'.length * 2 + 1 }],
    [
      'the raw text of scripts and styles does not count',
      '<div><script>var a = "<p>";</script><style>p{}</style>ab</div>',
      { elements: 3, textNesting: 2 },
    ],
  ])('%s', (_label, html, expected) => {
    expect(measure(html)).toMatchObject(expected);
    expect(measure(html)).toEqual(domShape(html));
  });

  it('agrees with the DOM linkedom builds, on any tag soup', () => {
    const names = [
      'div',
      'p',
      'li',
      'ul',
      'td',
      'tr',
      'table',
      'br',
      'img',
      'span',
      'svg',
      'path',
      'math',
      'mi',
      'title',
      'script',
      'style',
      'textarea',
      'option',
      'select',
      'input',
      'h1',
      'dd',
      'b',
      'foreignObject',
      'DIV',
      'hr',
      'xmp',
    ];
    const fragment = fc.oneof(
      fc.constantFrom(...names).map((name) => `<${name}>`),
      fc.constantFrom(...names).map((name) => `</${name}>`),
      fc.constantFrom(...names).map((name) => `<${name}/>`),
      fc.constantFrom(...names).map((name) => `<${name} a="x>y" b='>' c=d/>`),
      fc
        .array(
          fc.constantFrom(
            '<',
            '>',
            '/',
            '"',
            "'",
            '=',
            '!',
            '-',
            ' ',
            '\n',
            '[',
            ']',
            '?',
            'a',
            'p',
            'div',
            'script',
            'SCRIPT',
            'svg',
            'br',
          ),
          { maxLength: 12 },
        )
        .map((parts) => parts.join('')),
      fc.constantFrom(
        'text',
        '<!-- <div> -->',
        '<!-->',
        '<!DOCTYPE html>',
        '<![CDATA[<div>]]>',
        '< div>',
        '</ div>',
        '</>',
        '</div/>',
        '</p>',
        '</script >',
      ),
    );

    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (fragments) => {
        const html = fragments.join('');
        const { textNesting, ...elements } = measure(html);
        const dom = domShape(html);

        expect(elements).toEqual({ elements: dom.elements, maxDepth: dom.maxDepth, nesting: dom.nesting });
        // The text may differ by a few characters: a construct cut off at the end, a script closed with `/>`.
        expect(Math.abs(textNesting - dom.textNesting)).toBeLessThanOrEqual(64 * Math.max(1, dom.maxDepth));
      }),
      { numRuns: 1_000 },
    );
  });

  describe('bounds', () => {
    const limits: HtmlShapeLimits = { maxElements: 100, maxDepth: 10, maxNesting: 300 };

    it('stops at the first bound passed, naming it', () => {
      expect(measureHtml('<p>x</p>'.repeat(101), limits)).toEqual({
        elements: 101,
        maxDepth: 1,
        nesting: 101,
        textNesting: 100,
        over: 'maxElements',
      });
      expect(measureHtml('<div>'.repeat(4_000), limits)).toEqual({
        elements: 11,
        maxDepth: 11,
        nesting: 66,
        textNesting: 0,
        over: 'maxDepth',
      });
      expect(measureHtml(`${'<div>'.repeat(9)}${'<p></p>'.repeat(90)}`, limits)).toMatchObject({
        elements: 35,
        nesting: 305,
        over: 'maxNesting',
      });
      expect(measureHtml(`${'<div>'.repeat(9)}${'x'.repeat(1_000)}`, limits)).toMatchObject({
        elements: 9,
        textNesting: 9_000,
        over: 'maxNesting',
      });
    });

    it('passes markup at every bound', () => {
      const atBounds = `${'<div>'.repeat(10)}${'</div>'.repeat(10)}${`<p>${'x'.repeat(32)}</p>`.repeat(90)}`;

      expect(measureHtml(atBounds, { ...limits, maxNesting: 55 + 90 + 90 })).toEqual({
        elements: 100,
        maxDepth: 10,
        nesting: 145,
        textNesting: 32 * 90,
      });
    });
  });
});
