import { z } from 'zod';
import { ConfigError, optionalUrl, readConfig, requiredString } from '../../shared/platform/config';
import { canonicalJson, sha256Hex } from '../../shared/platform/hashing';
import { redact } from '../../shared/platform/logger';

describe('canonicalJson', () => {
  it('gives the same text whatever the key order, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
    expect(sha256Hex(canonicalJson({ a: 1 }))).not.toBe(sha256Hex(canonicalJson({ a: 2 })));
  });
});

describe('readConfig', () => {
  it('names every missing setting', () => {
    expect(() => readConfig({ TABLE_NAME: requiredString(), SALES_QUEUE_URL: requiredString() }, {})).toThrow(
      new ConfigError('Invalid configuration: TABLE_NAME is not set; SALES_QUEUE_URL is not set'),
    );
  });

  it('treats blank values as unset and applies declared defaults', () => {
    expect(readConfig({ PORT: z.coerce.number().default(3000), HOST: z.string().optional() }, { PORT: ' ', HOST: 'x' })).toEqual({
      PORT: 3000,
      HOST: 'x',
    });
  });

  it('compiles no parser for its one parse (zod would build one with `new Function`, cold-start time for nothing)', () => {
    const compiled: string[] = [];
    const original = globalThis.Function;
    globalThis.Function = new Proxy(original, {
      construct(target, args: string[]) {
        compiled.push(String(args.at(-1)));
        return Reflect.construct(target, args);
      },
    });
    let read: unknown;
    try {
      read = readConfig(
        { TABLE_NAME: requiredString(), BASE_URL: optionalUrl() },
        { TABLE_NAME: 'table', BASE_URL: 'https://example.com' },
      );
    } finally {
      globalThis.Function = original;
    }
    expect(read).toEqual({ TABLE_NAME: 'table', BASE_URL: 'https://example.com' });
    expect(compiled).toEqual([]);
  });
});

describe('redact', () => {
  it('masks keys, bearer tokens and key query parameters', () => {
    const text = redact('auth Bearer abc.def sk-proj-ABCDEFGH123 sbk_abcdefghijkl https://x/customsearch/v1?key=AIzaSecret&q=1');
    expect(text).not.toMatch(/abc\.def|sk-proj-ABCDEFGH123|sbk_abcdefghijkl|AIzaSecret/);
    expect(text).toContain('q=1');
  });
});
