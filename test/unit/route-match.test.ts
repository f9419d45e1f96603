import { methodsForPath, pathMatches } from '../../shared/api/route-match';
import { answerUnmatched } from '../../shared/api/unmatched';
import type { RouteDefinition } from '../../shared/catalogue/routes';

const ROUTES: RouteDefinition[] = [
  { method: 'GET', path: '/health', function: 'healthApi' },
  { method: 'HEAD', path: '/health', function: 'healthApi' },
  { method: 'GET', path: '/api/commands/{id}', function: 'getCommandApi' },
  { method: 'GET', path: '/api/commands/{id}', function: 'getCommandApi' },
  { method: 'POST', path: '/api/agents/sales/leadFollowUp', function: 'leadFollowUpApi' },
];

describe('pathMatches', () => {
  it.each([
    ['/health', '/health', true],
    ['/health', '/health/', true],
    ['/health', '/healthz', false],
    ['/health', '/Health', false],
    ['/api/commands/{id}', '/api/commands/0190a5e0-0000-7000-8000-000000000000', true],
    ['/api/commands/{id}', '/api/commands/anything-at-all', true],
    ['/api/commands/{id}', '/api/commands/', false],
    ['/api/commands/{id}', '/api/commands', false],
    ['/api/commands/{id}', '/api/commands/a/b', false],
    ['/api/commands/{id}', '/api/commands//', false],
  ])('%s fits %s: %p', (template, path, expected) => {
    expect(pathMatches(template, path)).toBe(expected);
  });
});

describe('methodsForPath', () => {
  it('lists the methods of every route on the path, once each, in catalogue order', () => {
    expect(methodsForPath('/health', ROUTES)).toEqual(['GET', 'HEAD']);
    expect(methodsForPath('/api/commands/x', ROUTES)).toEqual(['GET']);
    expect(methodsForPath('/api/nowhere', ROUTES)).toEqual([]);
  });

  it('reads the service catalogue by default', () => {
    expect(methodsForPath('/health')).toEqual(expect.arrayContaining(['GET', 'HEAD']));
    expect(methodsForPath('/api/agents/sales/leadFollowUp')).toContain('POST');
  });
});

describe('answerUnmatched', () => {
  const bodyOf = (result: { body: string }) => JSON.parse(result.body) as { success: boolean; error: { code: string; message: string } };

  it('answers 405 METHOD_NOT_ALLOWED with an Allow header for a known path and another method', () => {
    const answer = answerUnmatched('POST', '/health', ROUTES);
    expect(answer.statusCode).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
    expect(bodyOf(answer)).toEqual({
      success: false,
      error: { code: 'METHOD_NOT_ALLOWED', message: expect.stringContaining('GET, HEAD') },
    });
    expect(answerUnmatched('DELETE', '/api/agents/sales/leadFollowUp', ROUTES).headers.allow).toBe('POST');
  });

  it('answers 404 NOT_FOUND without Allow for an unknown path', () => {
    const answer = answerUnmatched('GET', '/api/nowhere', ROUTES);
    expect(answer.statusCode).toBe(404);
    expect(answer.headers.allow).toBeUndefined();
    expect(bodyOf(answer).error).toEqual({ code: 'NOT_FOUND', message: 'No route for GET /api/nowhere.' });
  });

  it('does not echo a long path in full', () => {
    const path = `/api/${'x'.repeat(5000)}`;
    expect(bodyOf(answerUnmatched('GET', path, ROUTES)).error.message.length).toBeLessThan(60);
  });
});
