import { createLogger, renderPrettyLine } from '../../shared/platform/logger';
import { captureOutput } from '../support/capture-output';

const TIME = /^\d\d:\d\d:\d\d /;
const ESCAPE = '\x1b[';
const YELLOW = '\x1b[33m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

/** The text of a line wrapped in `colour` (fails the test when it is not). */
function inColour(line: string | undefined, colour: string): string {
  expect(line?.startsWith(colour) && line.endsWith(RESET)).toBe(true);
  return line!.slice(colour.length, -RESET.length);
}

/** Runs `run` with environment variables set, putting the old values back after. */
async function withEnv(values: Record<string, string | undefined>, run: () => unknown): Promise<void> {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (entries: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(entries)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(values);
  try {
    await run();
  } finally {
    apply(previous);
  }
}

describe('createLogger, pretty', () => {
  it('prints a finished job as one line: time, job type, command id, outcome, duration', async () => {
    const { stdout } = await captureOutput(() => {
      createLogger('salesWorker', { format: 'pretty', level: 'INFO' }).info('Job done', {
        jobType: 'lead_follow_up',
        commandId: '01a20895-d6d1-74a8-83a2-fe5fd439701d',
        outcome: 'completed',
        durationMs: 12.4,
        messageId: 'm-1',
        queue: 'sales',
      });
    });
    expect(stdout).toMatch(/^\d\d:\d\d:\d\d job lead_follow_up 01a20895-d6d1-74a8-83a2-fe5fd439701d completed 12ms\n$/);
  });

  it('prints other lines as time, level, message and key=value pairs, not JSON', async () => {
    const { stdout } = await captureOutput(() => {
      createLogger('commandJanitor', { format: 'pretty', level: 'INFO' }).info('Janitor run', {
        requeued: 1,
        failed: 0,
        note: 'two words',
      });
    });
    expect(stdout).toMatch(TIME);
    expect(stdout.slice(9)).toBe('INFO Janitor run requeued=1 failed=0 note="two words"\n');
  });

  it('sends warnings and errors to stderr, yellow and red on a terminal and plain otherwise', async () => {
    const log = () => {
      const logger = createLogger('salesWorker', { format: 'pretty', level: 'INFO' });
      logger.warn('Job failed; it will be delivered again', { commandId: 'c-1' });
      logger.error('Unhandled error', { error: { name: 'Error', message: 'boom' } });
    };
    const terminal = await captureOutput(log, { tty: true });
    const [warning, error] = terminal.stderr.trimEnd().split('\n');
    expect(inColour(warning, YELLOW)).toMatch(/^\d\d:\d\d:\d\d WARN Job failed; it will be delivered again commandId=c-1$/);
    expect(inColour(error, RED)).toMatch(/^\d\d:\d\d:\d\d ERROR Unhandled error error=\{"name":"Error","message":"boom"\}$/);
    const piped = await captureOutput(log, { tty: false });
    expect(piped.stderr.split('\n').filter(Boolean)).toHaveLength(2);
    expect(piped.stderr).not.toContain(ESCAPE);
    expect(piped.stdout).toBe('');
  });

  it('never prints a key or a secret', async () => {
    const { stdout } = await captureOutput(() => {
      createLogger('leadFollowUpApi', { format: 'pretty' }).info('calling with sk-live0123456789abcdef', {
        header: 'Bearer sbk_abcdefghijklmnop',
        url: 'https://x.test/?key=hunter22',
      });
    });
    expect(stdout).not.toMatch(/sk-live0123456789abcdef|sbk_abcdefghijklmnop|hunter22/);
    expect(stdout).toContain('[redacted]');
  });

  it('respects the level', async () => {
    const { stdout, stderr } = await captureOutput(() => {
      const logger = createLogger('salesWorker', { format: 'pretty', level: 'ERROR' });
      logger.info('not shown');
      logger.warn('not shown either');
    });
    expect(stdout + stderr).toBe('');
  });
});

describe('createLogger, json and the environment', () => {
  it('prints Powertools JSON by default, as in Lambda', async () => {
    await withEnv({ LOG_FORMAT: undefined, LOG_LEVEL: undefined, POWERTOOLS_DEV: undefined }, async () => {
      const { stdout } = await captureOutput(() =>
        createLogger('salesWorker').info('Job done', { jobType: 'lead_follow_up', outcome: 'completed' }),
      );
      expect(JSON.parse(stdout)).toMatchObject({
        level: 'INFO',
        message: 'Job done',
        service: 'salesWorker',
        jobType: 'lead_follow_up',
        outcome: 'completed',
      });
    });
  });

  it('reads LOG_FORMAT and LOG_LEVEL when no options are given, and options override them', async () => {
    await withEnv({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'WARN', POWERTOOLS_DEV: undefined }, async () => {
      const fromEnv = await captureOutput(() => {
        const logger = createLogger('salesWorker');
        logger.info('hidden by LOG_LEVEL');
        logger.warn('shown');
      });
      expect(fromEnv.stdout).toBe('');
      expect(fromEnv.stderr).toMatch(/^\d\d:\d\d:\d\d WARN shown\n$/);
      const overridden = await captureOutput(() => createLogger('salesWorker', { format: 'json', level: 'INFO' }).info('as JSON'));
      expect(JSON.parse(overridden.stdout)).toMatchObject({ level: 'INFO', message: 'as JSON' });
    });
  });

  it('fails at cold start on an unknown LOG_FORMAT, naming it', async () => {
    await withEnv({ LOG_FORMAT: 'xml' }, () => {
      expect(() => createLogger('salesWorker')).toThrow(/LOG_FORMAT/);
    });
  });
});

describe('renderPrettyLine', () => {
  it('formats a failed job with its reason after the fixed fields', () => {
    const line = renderPrettyLine(
      {
        time: '09:05:01',
        level: 'WARN',
        message: 'Job done',
        jobType: 'copywriter',
        commandId: 'c-9',
        outcome: 'failed',
        durationMs: 1500,
        code: 'NO_CONTENT_GENERATED',
      },
      { color: false },
    );
    expect(line).toBe('09:05:01 job copywriter c-9 failed 1500ms code=NO_CONTENT_GENERATED');
  });
});
