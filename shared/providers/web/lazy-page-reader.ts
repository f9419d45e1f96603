import { onFirstUse } from '../../platform/memo';
import type { PageReader, PageReaderOptions } from './page-reader';

/**
 * The safe page reader of `createPageReader(options)`, its module loaded on
 * the first page read. Only an advanced content analysis reads pages: a
 * research job that searches, or analyses titles and snippets, never
 * evaluates the reader, its HTML measures or its address checks (ipaddr.js),
 * and a cold start does not either. Concurrent first reads share one import.
 */
export function lazyPageReader(options: PageReaderOptions = {}): PageReader {
  const reader = onFirstUse(async () => (await import('./page-reader')).createPageReader(options));
  return async (url) => (await reader())(url);
}
