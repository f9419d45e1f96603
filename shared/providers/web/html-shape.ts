/** The bounds a page's markup must keep to before it is parsed into a DOM. */
export interface HtmlShapeLimits {
  /** Most elements. */
  maxElements: number;
  /** Deepest nesting: elements open around an element, plus one. */
  maxDepth: number;
  /** Most nesting in all, as `nestingWeight` weighs it. */
  maxNesting: number;
}

/** What the scan counted; it stops at the first bound passed, so the counts are then partial. */
export interface HtmlShape {
  elements: number;
  maxDepth: number;
  /** Every element's depth, summed. */
  nesting: number;
  /** Every character of text times the elements around it, summed (the raw text of scripts and styles left out). */
  textNesting: number;
  /** The first bound the markup passed, if any. */
  over?: keyof HtmlShapeLimits;
}

/**
 * Characters of text that weigh as much as one element. Readability reads
 * the text and the elements under every candidate element again and again,
 * so its work grows with how often each element and each character is
 * inside another; measured on this code, one element–ancestor pair costs
 * about as much as 30 to 60 characters under one ancestor.
 */
export const TEXT_CHARACTERS_PER_ELEMENT = 32;

/** The nesting a page's parse costs: every element's depth, each 32 characters of text counting as one element at theirs. */
export function nestingWeight(shape: Pick<HtmlShape, 'nesting' | 'textNesting'>): number {
  return shape.nesting + shape.textNesting / TEXT_CHARACTERS_PER_ELEMENT;
}

/**
 * The elements, depth and nesting (of elements and of text) of HTML as the
 * DOM would hold them, in one linear pass over the markup with no tree
 * built. Tags are tokenized as the parser under linkedom (htmlparser2)
 * tokenizes them: comments, declarations, quoted attribute values and the
 * raw text of script, style, title, textarea and xmp skipped. A stack of
 * open elements follows its tree building: void elements never open; an
 * end tag closes up to its element (a stray one is ignored, `</p>` and
 * `</br>` make an element); a start tag first closes what it implies
 * closed (`<li>` an open `li`, a block a `p`, ...); `/>` closes only inside
 * svg and math. The pass stops at the first bound passed, and costs at
 * most the length of the markup: an end tag pops only a name that is open.
 */
export function measureHtml(html: string, limits: HtmlShapeLimits): HtmlShape {
  return new HtmlScan(html, limits).run();
}

/** Start tags that close the open element on top of the stack while it is one of these (htmlparser2's table). */
const FORM_TAGS = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const P_TAG = new Set(['p']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
const IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag) => [tag, FORM_TAGS] as const),
  ...[
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((tag) => [tag, P_TAG] as const),
]);

const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose content is raw text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

/** Inside these, `/>` closes an element; inside the integration points it does not again. */
const FOREIGN = new Set(['math', 'svg']);
const INTEGRATION_POINTS = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

const CDATA = 'CDATA[';

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
const isAsciiAlpha = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const endsTagSection = (c: number) => c === SLASH || c === GT || isWhitespace(c);

class HtmlScan {
  private readonly stack: string[] = [];
  /** How many of each name are on the stack: an end tag for a name not open costs nothing. */
  private readonly open = new Map<string, number>();
  /** Whether `/>` closes, innermost last: svg and math push true, their integration points false. */
  private readonly foreign: boolean[] = [false];
  private readonly shape: HtmlShape = { elements: 0, maxDepth: 0, nesting: 0, textNesting: 0 };
  private at = 0;

  constructor(
    private readonly html: string,
    private readonly limits: HtmlShapeLimits,
  ) {}

  run(): HtmlShape {
    const { html } = this;
    let textFrom = 0;
    while (this.shape.over === undefined) {
      const lt = html.indexOf('<', this.at);
      if (lt < 0 || lt + 1 >= html.length) break;
      this.at = lt + 1;
      const c = html.charCodeAt(this.at);
      // A `<` that starts no markup is text, and so is what follows it (`</>` included).
      if (!(c === BANG || c === QUESTION || isAsciiAlpha(c) || (c === SLASH && !this.emptyEndTag()))) continue;
      this.text(lt - textFrom);
      if (c === BANG) this.skipDeclaration();
      else if (c === QUESTION) this.skipPast('>', this.at, this.at + 1);
      else if (c === SLASH) this.endTag();
      else this.startTag();
      textFrom = this.at;
    }
    if (this.shape.over === undefined) this.text(html.length - textFrom);
    return this.shape;
  }

  /**
   * `<!--...-->`, `<![CDATA[...]]>`, or any other `<!...>`. As in the HTML
   * parser, `<!-->` is a whole comment, and the character after `<!` (or
   * `<!-`) is never the `>` that ends a declaration.
   */
  private skipDeclaration(): void {
    const { html, at } = this;
    if (html.startsWith('!--', at)) return this.skipPast('-->', at + 1);
    if (html.startsWith('![', at)) {
      let matched = 0;
      while (matched < CDATA.length && html[at + 2 + matched] === CDATA[matched]) matched += 1;
      return matched === CDATA.length ? this.skipPast(']]>', at + 2 + matched) : this.skipPast('>', at + 2 + matched, at + 1);
    }
    this.skipPast('>', html.startsWith('!-', at) ? at + 3 : at + 2, at + 1);
  }

  private startTag(): void {
    const name = this.readName();
    const selfClosing = this.skipAttributes();
    // A tag the markup ends inside makes no element.
    if (selfClosing === undefined) return;
    this.openElement(name);
    if (VOID.has(name)) return;
    if (selfClosing && this.foreign.at(-1)) {
      this.closeTop(name);
      return;
    }
    if (!selfClosing && RAW_TEXT.has(name)) this.skipRawText(name);
  }

  /** Whether the `/` at `at` begins `</>` or `</ >`, which the tokenizer leaves as text. */
  private emptyEndTag(): boolean {
    let next = this.at + 1;
    while (next < this.html.length && isWhitespace(this.html.charCodeAt(next))) next += 1;
    return this.html.charCodeAt(next) === GT;
  }

  private endTag(): void {
    const { html } = this;
    this.at += 1;
    while (this.at < html.length && isWhitespace(html.charCodeAt(this.at))) this.at += 1;
    if (!isAsciiAlpha(html.charCodeAt(this.at))) return this.skipPast('>', this.at + 1, this.at);
    const name = this.readName((c) => c === GT || isWhitespace(c));
    // An end tag the markup ends inside closes nothing.
    if (this.at >= html.length) return;
    this.skipPast('>');
    if (FOREIGN.has(name) || INTEGRATION_POINTS.has(name)) this.foreign.pop();
    if (name === 'br') {
      this.count();
      return;
    }
    if (VOID.has(name)) return;
    if (this.open.get(name)) {
      let closed: string | undefined;
      do closed = this.pop();
      while (closed !== name);
    } else if (name === 'p') {
      this.openElement('p');
      this.closeTop('p');
    }
  }

  /** The tag name at `at`, lowercased; `at` moves past it. */
  private readName(ends: (c: number) => boolean = endsTagSection): string {
    const start = this.at;
    while (this.at < this.html.length && !ends(this.html.charCodeAt(this.at))) this.at += 1;
    return this.html.slice(start, this.at).toLowerCase();
  }

  /**
   * Moves past the attributes and the closing `>`, as the tokenizer reads
   * them (a value starts only at an `=` after a name; a quoted one may hold
   * `>`). Answers whether the tag ended with `/>`, undefined when it never ends.
   */
  private skipAttributes(): boolean | undefined {
    const { html } = this;
    let state: 'beforeName' | 'name' | 'afterName' | 'beforeValue' | 'unquoted' | 'selfClosing' = 'beforeName';
    for (; this.at < html.length; this.at += 1) {
      const c = html.charCodeAt(this.at);
      if (state === 'beforeValue') {
        if (isWhitespace(c)) continue;
        if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
          const close = html.indexOf(String.fromCharCode(c), this.at + 1);
          if (close < 0) break;
          this.at = close;
          state = 'beforeName';
          continue;
        }
        state = 'unquoted';
      }
      if (state === 'name') {
        if (c !== EQUALS && !endsTagSection(c)) continue;
        state = 'afterName';
      } else if (state === 'unquoted') {
        if (c !== GT && !isWhitespace(c)) continue;
        state = 'beforeName';
      } else if (state === 'selfClosing') {
        if (c === GT) {
          this.at += 1;
          return true;
        }
        if (isWhitespace(c)) continue;
        state = 'beforeName';
      }
      if (state === 'afterName') {
        if (c === EQUALS) state = 'beforeValue';
        else if (c === SLASH || c === GT) state = 'beforeName';
        else if (!isWhitespace(c)) state = 'name';
        if (state !== 'beforeName') continue;
      }
      if (c === GT) {
        this.at += 1;
        return false;
      }
      if (c === SLASH) state = 'selfClosing';
      else if (!isWhitespace(c)) state = 'name';
    }
    this.at = html.length;
    return undefined;
  }

  /** Moves past the end tag of a raw-text element (`</name`, any case), or to the end. */
  private skipRawText(name: string): void {
    const { html } = this;
    const end = `</${name}`;
    for (let lt = html.indexOf('</', this.at); lt >= 0; lt = html.indexOf('</', lt + 2)) {
      const after = html.charCodeAt(lt + end.length);
      if (html.slice(lt, lt + end.length).toLowerCase() === end && (after === GT || isWhitespace(after))) {
        this.at = lt;
        return;
      }
    }
    this.at = html.length;
  }

  /**
   * Moves past the next `terminator` from `from`. Without one, to the end;
   * what a declaration, processing instruction or bogus comment left open
   * then holds from `textFrom` is text, as the tokenizer gives it at the end.
   */
  private skipPast(terminator: string, from = this.at, textFrom?: number): void {
    const found = this.html.indexOf(terminator, from);
    if (found >= 0) {
      this.at = found + terminator.length;
      return;
    }
    if (textFrom !== undefined) this.text(this.html.length - textFrom);
    this.at = this.html.length;
  }

  /** An element opens: it first closes what it implies closed, then counts at its depth (void ones never stay open). */
  private openElement(name: string): void {
    const impliesClose = IMPLIES_CLOSE.get(name);
    if (impliesClose) while (this.stack.length > 0 && impliesClose.has(this.stack[this.stack.length - 1]!)) this.pop();
    this.count();
    if (VOID.has(name)) return;
    this.stack.push(name);
    this.open.set(name, (this.open.get(name) ?? 0) + 1);
    if (FOREIGN.has(name)) this.foreign.push(true);
    else if (INTEGRATION_POINTS.has(name)) this.foreign.push(false);
  }

  private closeTop(name: string): void {
    if (this.stack[this.stack.length - 1] === name) this.pop();
  }

  private pop(): string {
    const name = this.stack.pop()!;
    this.open.set(name, this.open.get(name)! - 1);
    return name;
  }

  /** One more element, one deeper than the elements open. */
  private count(): void {
    const shape = this.shape;
    const depth = this.stack.length + 1;
    shape.elements += 1;
    shape.nesting += depth;
    if (depth > shape.maxDepth) shape.maxDepth = depth;
    this.check();
  }

  /** Characters of text inside the elements open. */
  private text(characters: number): void {
    if (characters <= 0) return;
    this.shape.textNesting += characters * this.stack.length;
    this.check();
  }

  private check(): void {
    const { shape, limits } = this;
    if (shape.elements > limits.maxElements) shape.over = 'maxElements';
    else if (shape.maxDepth > limits.maxDepth) shape.over = 'maxDepth';
    else if (nestingWeight(shape) > limits.maxNesting) shape.over = 'maxNesting';
  }
}
