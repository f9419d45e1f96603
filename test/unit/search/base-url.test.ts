import { joinBaseUrl } from '../../../shared/platform/base-url';

describe('joinBaseUrl', () => {
  it('appends the endpoint to a root without a path', () => {
    expect(joinBaseUrl('https://customsearch.googleapis.com', '/customsearch/v1').href).toBe(
      'https://customsearch.googleapis.com/customsearch/v1',
    );
  });

  it('keeps a root path prefix, with or without a trailing slash', () => {
    expect(joinBaseUrl('http://127.0.0.1:9000/v1', '/customsearch/v1').href).toBe('http://127.0.0.1:9000/v1/customsearch/v1');
    expect(joinBaseUrl('http://127.0.0.1:9000/v1/', 'res/v1/web/search').href).toBe('http://127.0.0.1:9000/v1/res/v1/web/search');
  });

  it("drops the root's query and fragment, and refuses other schemes", () => {
    expect(joinBaseUrl('https://proxy.example/api?x=1#y', '/customsearch/v1').href).toBe('https://proxy.example/api/customsearch/v1');
    expect(() => joinBaseUrl('file:///etc', '/x')).toThrow('http or https');
  });
});
