import type { Context } from 'aws-lambda';
import { HandlerTimeoutError, withMiddleware, type Middleware } from '../../shared/platform/handler-chain';
import { lambdaContext } from '../../infra/local/lambda-context';

type Steps = Middleware<string, string>;

/** A step that notes each of its phases in `seen`, and answers `handled:<error>` in onError when asked to. */
function noting(name: string, seen: string[], options: { answersErrors?: boolean } = {}): Steps {
  return {
    before: () => {
      seen.push(`${name}.before`);
    },
    after: ({ response }) => {
      seen.push(`${name}.after(${response})`);
    },
    onError: (invocation) => {
      seen.push(`${name}.onError`);
      if (options.answersErrors) invocation.response = `handled:${(invocation.error as Error).message}`;
    },
  };
}

/** A context without a clock, as a plain test gives it: no timeout race. */
const bareContext = {} as Context;

describe('withMiddleware', () => {
  it('runs each before in order, the handler, then each after in reverse order', async () => {
    const seen: string[] = [];
    const handler = withMiddleware<string, string>(
      async (event) => {
        seen.push(`handler(${event})`);
        return 'answer';
      },
      [noting('outer', seen), noting('inner', seen)],
    );
    await expect(handler('event', bareContext)).resolves.toBe('answer');
    expect(seen).toEqual(['outer.before', 'inner.before', 'handler(event)', 'inner.after(answer)', 'outer.after(answer)']);
  });

  it('hands the handler the event and context a before step replaced', async () => {
    const handler = withMiddleware<string, string, Context & { caller?: string }>(
      async (event, context) => `${event} by ${context.caller}`,
      [
        {
          before: (invocation) => {
            invocation.event = invocation.event.toUpperCase();
            invocation.context.caller = 'key-1';
          },
        },
      ],
    );
    await expect(handler('event', { ...bareContext })).resolves.toBe('EVENT by key-1');
  });

  it('skips the handler and the after steps when a before step throws, and answers with what onError set', async () => {
    const seen: string[] = [];
    const refusing: Steps = {
      before: () => {
        throw new Error('refused');
      },
    };
    const handler = withMiddleware<string, string>(async () => {
      seen.push('handler');
      return 'answer';
    }, [noting('outer', seen, { answersErrors: true }), noting('inner', seen), refusing]);
    await expect(handler('event', bareContext)).resolves.toBe('handled:refused');
    expect(seen).toEqual(['outer.before', 'inner.before', 'inner.onError', 'outer.onError']);
  });

  it('drops the response when an after step throws, and runs onError', async () => {
    const seen: string[] = [];
    const failingAfter: Steps = {
      after: () => {
        throw new Error('after failed');
      },
    };
    const handler = withMiddleware<string, string>(async () => 'answer', [noting('outer', seen, { answersErrors: true }), failingAfter]);
    await expect(handler('event', bareContext)).resolves.toBe('handled:after failed');
    expect(seen).toEqual(['outer.before', 'outer.onError']);
  });

  it('throws the original error when no onError step answers', async () => {
    const seen: string[] = [];
    const failure = new Error('handler failed');
    const handler = withMiddleware<string, string>(async () => {
      throw failure;
    }, [noting('only', seen)]);
    await expect(handler('event', bareContext)).rejects.toBe(failure);
    expect(seen).toEqual(['only.before', 'only.onError']);
  });

  it('gives up a handler still running just before the function times out, through onError', async () => {
    let errorSeen: unknown;
    const handler = withMiddleware<string, string>(
      () => new Promise<string>(() => undefined),
      [
        {
          onError: (invocation) => {
            errorSeen = invocation.error;
            invocation.response = 'timed out';
          },
        },
      ],
    );
    // 25 ms left: the race ends 5 ms before, well inside jest's timeout.
    const context = { ...lambdaContext('getCommandApi', 30), getRemainingTimeInMillis: () => 25 };
    await expect(handler('event', context)).resolves.toBe('timed out');
    expect(errorSeen).toBeInstanceOf(HandlerTimeoutError);
  });

  it('lets a handler that answers in time answer, and races nothing without the time left', async () => {
    const slow = withMiddleware<string, string>(() => new Promise((resolve) => setTimeout(() => resolve('late but fine'), 30)), []);
    await expect(slow('event', bareContext)).resolves.toBe('late but fine');
    await expect(slow('event', lambdaContext('getCommandApi', 29))).resolves.toBe('late but fine');
  });
});
