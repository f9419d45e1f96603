import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { capText, collapseWhitespace, type ReadablePage } from './readable-page';

/** Elements whose end starts a new line of text. */
const BLOCKS =
  'p, main, nav, aside, h1, h2, h3, h4, h5, h6, li, dt, dd, blockquote, pre, tr, div, section, article, header, footer, figcaption, br, hr, table, ul, ol';

/** Elements that are never part of the readable text. */
const NOISE = 'script, style, noscript, template, svg, canvas, iframe, object, embed, form, button, select, input, textarea';

/** Page furniture: menus and sidebars are dropped from an article; headers and footers too when the whole body is read. */
const MENUS = 'nav, aside';
const FURNITURE = `${MENUS}, header, footer`;

const MAX_TITLE_CHARS = 300;

/**
 * The readable text of an HTML page: the article as @mozilla/readability
 * finds it over linkedom's DOM, or, when it finds none, the body without
 * scripts, styles, navigation, headers, footers and forms. Block elements
 * end lines; whitespace is collapsed; the text is cut at a word boundary
 * within `maxChars`.
 */
export function readableHtml(html: string, maxChars: number): ReadablePage {
  const { document } = parseHTML(html);
  const pageTitle = collapseWhitespace(document.title ?? '');
  const article = readabilityArticle(document);
  const text = article?.text || bodyText(html);
  const title = article?.title || pageTitle;
  return { ...(title ? { title: capText(title, MAX_TITLE_CHARS) } : {}), text: capText(text, maxChars) };
}

/** The article Readability finds (it changes the document it reads). */
function readabilityArticle(document: unknown): { title: string; text: string } | undefined {
  let article: ReturnType<Readability['parse']>;
  try {
    article = new Readability(document).parse();
  } catch {
    return undefined;
  }
  if (!article?.content) return undefined;
  const { document: content } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
  content.querySelectorAll(`${NOISE}, ${MENUS}`).forEach((node: { remove(): void }) => node.remove());
  return { title: collapseWhitespace(article.title ?? ''), text: blockText(content.body) };
}

function bodyText(html: string): string {
  const { document } = parseHTML(html);
  const body = document.body ?? document.documentElement;
  if (!body) return '';
  body.querySelectorAll(`${NOISE}, ${FURNITURE}`).forEach((node: { remove(): void }) => node.remove());
  return blockText(body);
}

interface TextElement {
  querySelectorAll(selector: string): Iterable<{ after(...nodes: string[]): void }>;
  textContent: string | null;
}

/** Text of an element, with a line break after each block element. */
function blockText(element: TextElement): string {
  for (const block of element.querySelectorAll(BLOCKS)) block.after('\n');
  return collapseWhitespace(element.textContent ?? '');
}
