/**
 * A provider's endpoint under a configured root: the root's own path is
 * kept (`http://127.0.0.1:9000/v1` + `/customsearch/v1` →
 * `http://127.0.0.1:9000/v1/customsearch/v1`), never replaced, as
 * `new URL('/customsearch/v1', root)` would. Query and fragment of the root
 * are dropped; the root must be an absolute http(s) URL.
 */
export function joinBaseUrl(root: string, path: string): URL {
  const url = new URL(root);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Base URL must be http or https (got ${url.protocol})`);
  url.search = '';
  url.hash = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url;
}
