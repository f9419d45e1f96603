/**
 * Just enough XML reading for the AWS Query protocol answers the preflight
 * reads (CloudFormation, SNS, STS): the text of an element, the
 * `<member>` entries of a list. Not a general parser.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ENTITIES[entity.toLowerCase()] ?? '';
  });
}

/** The raw inner XML of the first `<tag>` element, or undefined. */
export function element(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml);
  return match?.[1];
}

/** The decoded text of the first `<tag>` element, or undefined. */
export function text(xml: string, tag: string): string | undefined {
  const inner = element(xml, tag);
  return inner === undefined ? undefined : decode(inner.trim());
}

/** The inner XML of each top-level `<member>` of `list`, nested lists kept whole. */
export function members(list: string): string[] {
  const found: string[] = [];
  const tags = /<(\/?)member>/g;
  let depth = 0;
  let start = 0;
  for (let match = tags.exec(list); match; match = tags.exec(list)) {
    if (match[1] === '') {
      if (depth === 0) start = match.index + match[0].length;
      depth += 1;
    } else {
      depth -= 1;
      if (depth === 0) found.push(list.slice(start, match.index));
    }
  }
  return found;
}

/** The `Code` and `Message` of an AWS Query error answer. */
export function queryError(xml: string): { code: string; message: string } {
  return { code: text(xml, 'Code') ?? 'Unknown', message: text(xml, 'Message') ?? '' };
}
