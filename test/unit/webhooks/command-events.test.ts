import { commandView } from '../../../shared/api/command-responses';
import { finishCommand, replayFinishHooks } from '../../../shared/commands/finish';
import { recordingPublisher } from '../../support/recording-events';
import type { StoredCommand } from '../../../shared/commands/record';
import type { CommandStore } from '../../../shared/commands/store';
import { commandEventAnnouncer, MAX_COMMAND_DATA_BYTES } from '../../../shared/webhooks/command-events';

const AT = '2026-11-23T10:00:00.000Z';

function command(overrides: Partial<StoredCommand>): StoredCommand {
  return {
    id: 'c-root',
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: 'acme',
    site_id: 'site-1',
    request: {},
    created_at: AT,
    updated_at: AT,
    attempts: 1,
    ...overrides,
  };
}

const ended = (value: StoredCommand) => async () => value;

describe('the command event announcer', () => {
  it('stages command.completed with data.command as GET shows the ended command, keyed by id and status', async () => {
    const root = command({ status: 'completed', result: { messages: { email: { title: 'Hi' } } } });
    const events = recordingPublisher();
    const staged = await commandEventAnnouncer(events)(root, { status: 'completed', result: root.result! }, ended(root));
    expect(events.events).toEqual([]);
    await staged.deliver();
    expect(events.events).toEqual([
      { tenantId: 'acme', type: 'command.completed', data: { command: commandView(root).data }, idempotencyKey: 'c-root:completed' },
    ]);
  });

  it('stages command.failed, its error included', async () => {
    const root = command({ status: 'failed', error: { code: 'SALES_COMMAND_FAILED', message: 'The model is unavailable.' } });
    const events = recordingPublisher();
    await (await commandEventAnnouncer(events)(root, { status: 'failed', error: root.error! }, ended(root))).deliver();
    expect(events.events[0]).toMatchObject({
      type: 'command.failed',
      idempotencyKey: 'c-root:failed',
      data: { command: { status: 'failed', error: root.error } },
    });
  });

  it('never announces an internal phase (its parent is announced when the parent ends)', async () => {
    const child = command({ id: 'c-child', type: 'copywriter', parent_id: 'c-root', status: 'completed', result: {} });
    const events = recordingPublisher();
    const staged = await commandEventAnnouncer(events)(child, { status: 'completed', result: {} }, ended(child));
    await staged.deliver();
    expect(staged.items).toEqual([]);
    expect(events.events).toEqual([]);
  });

  it('sends a summary, marked truncated, of a command too large to send whole', async () => {
    const root = command({ status: 'completed', result: { results: 'x'.repeat(MAX_COMMAND_DATA_BYTES + 1) } });
    const events = recordingPublisher();
    await (await commandEventAnnouncer(events)(root, { status: 'completed', result: root.result! }, ended(root))).deliver();
    expect(events.events[0]!.data).toEqual({
      command: { command_id: 'c-root', type: 'lead_follow_up', status: 'completed', site_id: 'site-1', created_at: AT, updated_at: AT },
      truncated: true,
    });
  });
});

describe('finishing with events', () => {
  it('writes the events with the terminal transition and hands them on only once it committed', async () => {
    const writes: unknown[][] = [];
    let inProgress = true;
    const commands = {
      get: async () => command({}),
      complete: async (_id: string, _result: unknown, _now: number, _patch: unknown, also: unknown[] = []) => {
        if (!inProgress) return false;
        inProgress = false;
        writes.push(also);
        return true;
      },
    } as unknown as CommandStore;
    const delivered: string[] = [];
    const announce = async () => ({
      items: [{ Put: { TableName: 't', Item: { pk: 'EVENT#x' } } }],
      deliver: async () => void delivered.push('x'),
    });

    expect(
      await finishCommand({ commands, clock: { now: () => 0 }, announce }, command({}), { status: 'completed', result: { a: 1 } }),
    ).toBe(true);
    expect(writes).toEqual([[{ Put: { TableName: 't', Item: { pk: 'EVENT#x' } } }]]);
    expect(delivered).toEqual(['x']);

    expect(
      await finishCommand({ commands, clock: { now: () => 0 }, announce }, command({}), { status: 'completed', result: { a: 2 } }),
    ).toBe(false);
    expect(delivered).toEqual(['x']);
  });
});

describe('finish hooks', () => {
  it('run again, with the stored ending, for a command found already terminal (a redelivered job)', async () => {
    const seen: string[] = [];
    const hook = async (finished: { id: string }, ending: { status: string }) => void seen.push(`${finished.id}:${ending.status}`);
    expect(
      await replayFinishHooks({ onFinished: [hook] }, command({ status: 'failed', error: { code: 'SYSTEM_ERROR', message: 'x' } })),
    ).toBe(true);
    expect(await replayFinishHooks({ onFinished: [hook] }, command({ status: 'completed', result: { a: 1 } }))).toBe(true);
    expect(await replayFinishHooks({ onFinished: [hook] }, command({}))).toBe(false);
    expect(seen).toEqual(['c-root:failed', 'c-root:completed']);
  });

  it('that throw fail the finishing after the terminal write (the caller retries; the write is not repeated)', async () => {
    const items = new Map([['c-root', command({})]]);
    const commands = {
      complete: async ({ id }: { id: string }, result: Record<string, unknown>) => {
        const current = items.get(id)!;
        if (current.status !== 'in_progress') return false;
        items.set(id, { ...current, status: 'completed', result });
        return true;
      },
    } as unknown as CommandStore;
    const failing = async () => {
      throw new Error('queue down');
    };
    await expect(
      finishCommand({ commands, clock: { now: () => 0 }, onFinished: [failing] }, command({}), { status: 'completed', result: { a: 1 } }),
    ).rejects.toThrow('queue down');
    expect(items.get('c-root')?.status).toBe('completed');
  });
});
