import { commandView } from '../../../shared/api/command-responses';
import type { PublishedEvent } from '../../../shared/commands/events';
import { finishCommand, replayFinishHooks } from '../../../shared/commands/finish';
import type { StoredCommand } from '../../../shared/commands/record';
import type { CommandStore } from '../../../shared/commands/store';
import { commandEventHook, MAX_COMMAND_DATA_BYTES } from '../../../shared/webhooks/command-events';

const AT = '2026-11-23T10:00:00.000Z';

function command(overrides: Partial<StoredCommand>): StoredCommand {
  return { id: 'c-root', type: 'lead_follow_up', status: 'in_progress', tenant_id: 'acme', site_id: 'site-1', request: {}, created_at: AT, updated_at: AT, attempts: 1, ...overrides };
}

/** A command store in a map: what the hook reads. */
function storeOf(...commands: StoredCommand[]): Pick<CommandStore, 'get'> & { items: Map<string, StoredCommand> } {
  const items = new Map(commands.map((item) => [item.id, item]));
  return { items, get: async (id) => items.get(id) };
}

function recorder() {
  const published: PublishedEvent[] = [];
  return { published, publish: async (event: PublishedEvent) => void published.push(event) };
}

describe('the command event hook', () => {
  it('tells a completed command as command.completed with data.command as GET shows it, keyed by id and status', async () => {
    const root = command({ status: 'completed', result: { messages: { email: { title: 'Hi' } } } });
    const events = recorder();
    await commandEventHook({ commands: storeOf(root), events })(root, { status: 'completed', result: root.result! });
    expect(events.published).toEqual([
      { tenantId: 'acme', type: 'command.completed', data: { command: commandView(root).data }, idempotencyKey: 'c-root:completed' },
    ]);
  });

  it('tells a failed command as command.failed, its error included', async () => {
    const root = command({ status: 'failed', error: { code: 'SALES_COMMAND_FAILED', message: 'The model is unavailable.' } });
    const events = recorder();
    await commandEventHook({ commands: storeOf(root), events })(root, { status: 'failed', error: root.error! });
    expect(events.published[0]).toMatchObject({ type: 'command.failed', idempotencyKey: 'c-root:failed', data: { command: { status: 'failed', error: root.error } } });
  });

  it('never announces an internal phase; its ending tells its root once the root has ended', async () => {
    const child = command({ id: 'c-child', type: 'copywriter', parent_id: 'c-root', status: 'completed', result: {} });
    const running = command({ child_ids: ['c-child'] });
    const events = recorder();
    await commandEventHook({ commands: storeOf(running, child), events })(child, { status: 'completed', result: {} });
    expect(events.published).toEqual([]);

    const ended = command({ status: 'completed', child_ids: ['c-child'], result: { done: true } });
    await commandEventHook({ commands: storeOf(ended, child), events })(child, { status: 'completed', result: {} });
    expect(events.published).toEqual([expect.objectContaining({ type: 'command.completed', idempotencyKey: 'c-root:completed', data: { command: commandView(ended).data } })]);
  });

  it("tells nothing of a command that is gone, or whose parent is another tenant's", async () => {
    const events = recorder();
    await commandEventHook({ commands: storeOf(), events })(command({}), { status: 'completed', result: {} });
    const child = command({ id: 'c-child', type: 'copywriter', parent_id: 'c-root', status: 'completed' });
    const foreign = command({ tenant_id: 'other', status: 'completed' });
    await commandEventHook({ commands: storeOf(child, foreign), events })(child, { status: 'completed', result: {} });
    expect(events.published).toEqual([]);
  });

  it('sends a summary, marked truncated, of a command too large to send whole', async () => {
    const root = command({ status: 'completed', result: { results: 'x'.repeat(MAX_COMMAND_DATA_BYTES + 1) } });
    const events = recorder();
    await commandEventHook({ commands: storeOf(root), events })(root, { status: 'completed', result: root.result! });
    expect(events.published[0]!.data).toEqual({
      command: { command_id: 'c-root', type: 'lead_follow_up', status: 'completed', site_id: 'site-1', created_at: AT, updated_at: AT },
      truncated: true,
    });
  });
});

describe('finish hooks', () => {
  it('run again, with the stored ending, for a command found already terminal (a redelivered job)', async () => {
    const seen: string[] = [];
    const hook = async (finished: { id: string }, ending: { status: string }) => void seen.push(`${finished.id}:${ending.status}`);
    expect(await replayFinishHooks({ onFinished: [hook] }, command({ status: 'failed', error: { code: 'SYSTEM_ERROR', message: 'x' } }))).toBe(true);
    expect(await replayFinishHooks({ onFinished: [hook] }, command({ status: 'completed', result: { a: 1 } }))).toBe(true);
    expect(await replayFinishHooks({ onFinished: [hook] }, command({}))).toBe(false);
    expect(seen).toEqual(['c-root:failed', 'c-root:completed']);
  });

  it('that throw fail the finishing after the terminal write (the caller retries; the write is not repeated)', async () => {
    const items = new Map([['c-root', command({})]]);
    const commands = {
      complete: async (id: string, result: Record<string, unknown>) => {
        const current = items.get(id)!;
        if (current.status !== 'in_progress') return false;
        items.set(id, { ...current, status: 'completed', result });
        return true;
      },
    } as unknown as CommandStore;
    const failing = async () => {
      throw new Error('queue down');
    };
    await expect(finishCommand({ commands, clock: { now: () => 0 }, onFinished: [failing] }, command({}), { status: 'completed', result: { a: 1 } })).rejects.toThrow('queue down');
    expect(items.get('c-root')?.status).toBe('completed');
  });
});
