import { commandIdOfLocation, formatRequestLine, requestLogFromEnv, type RequestRecord } from '../../infra/local/request-log';

const request: RequestRecord = {
  at: new Date(2026, 10, 23, 9, 5, 7),
  method: 'POST',
  path: '/api/agents/sales/leadFollowUp',
  status: 202,
  durationMs: 12.3,
  commandId: '01a20895-d6d1-74a8-83a2-fe5fd439701d',
};

describe('formatRequestLine', () => {
  it('prints time, method, path, status, duration and command id on one line', () => {
    expect(formatRequestLine(request, { color: false })).toBe(
      '09:05:07 POST /api/agents/sales/leadFollowUp 202 12ms 01a20895-d6d1-74a8-83a2-fe5fd439701d',
    );
  });

  it('leaves out a missing command id and masks a key in the path', () => {
    const line = formatRequestLine(
      { ...request, method: 'GET', path: '/api/x/sbk_abcdefghijklmnop', status: 404, commandId: undefined },
      { color: false },
    );
    expect(line).toBe('09:05:07 GET /api/x/[redacted] 404 12ms');
  });

  it('colours client errors yellow and server errors red, only when asked', () => {
    const plain = (status: number) => formatRequestLine({ ...request, status }, { color: false });
    expect(formatRequestLine({ ...request, status: 401 }, { color: true })).toBe(`\x1b[33m${plain(401)}\x1b[0m`);
    expect(formatRequestLine({ ...request, status: 500 }, { color: true })).toBe(`\x1b[31m${plain(500)}\x1b[0m`);
    expect(formatRequestLine(request, { color: true })).not.toContain('\x1b[');
  });
});

describe('requestLogFromEnv', () => {
  const linesFor = (env: Record<string, string | undefined>) => {
    const lines: string[] = [];
    requestLogFromEnv(env, { write: (line) => lines.push(line), color: false })(request);
    return lines;
  };

  it('prints one readable line by default', () => {
    expect(linesFor({})).toEqual([`${formatRequestLine(request, { color: false })}\n`]);
  });

  it.each(['ERROR', 'SILENT', 'silent'])('is quiet under LOG_LEVEL=%s', (level) => {
    expect(linesFor({ LOG_LEVEL: level })).toEqual([]);
  });

  it('prints a JSON line under LOG_FORMAT=json', () => {
    const [line] = linesFor({ LOG_FORMAT: 'json' });
    expect(JSON.parse(line!)).toEqual({
      level: 'INFO',
      message: 'Request',
      timestamp: request.at.toISOString(),
      service: 'gateway',
      method: 'POST',
      path: request.path,
      status: 202,
      durationMs: 12.3,
      commandId: request.commandId,
    });
  });
});

describe('commandIdOfLocation', () => {
  it.each([
    ['/api/commands/abc-1', 'abc-1'],
    ['http://127.0.0.1:3000/api/commands/abc-2?x=1', 'abc-2'],
    ['/elsewhere', undefined],
    [undefined, undefined],
  ])('reads %p as %p', (location, id) => {
    expect(commandIdOfLocation(location)).toBe(id);
  });
});
