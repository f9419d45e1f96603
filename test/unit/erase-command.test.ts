import { finishCommand } from '../../shared/commands/finish';
import type { LlmClient } from '../../shared/providers/llm/port';
import { createOfflineLlm } from '../../shared/providers/llm/offline';
import { leadFollowUpHarness } from './lead-follow-up/fixtures';

/** A command erased (DELETE /api/commands/{id}) while it is still in progress: nothing brings it back. */
describe('erasing a command in progress', () => {
  it('acknowledges its job when a worker takes it up later, re-creating nothing and dead-lettering nothing', async () => {
    const harness = leadFollowUpHarness({ script: [{ offline: true }] });
    const { command, job } = await harness.accept({});

    expect(await harness.commands.erase(command.id, 'tenant-a')).toBe(true);
    await harness.deliverSales(job);

    expect(harness.deadLetters).toEqual([]);
    expect(harness.queue.resent).toEqual([]);
    expect(harness.commands.records.size).toBe(0);
    expect(harness.llmRequests).toHaveLength(0);
  });

  it('makes the finish of a worker that already holds it fail harmlessly', async () => {
    const harness = leadFollowUpHarness();
    const { command } = await harness.accept({});
    const now = harness.clock.now();
    expect((await harness.commands.claim(command.id, { tenantId: 'tenant-a', type: 'lead_follow_up' }, now, now + 60_000)).kind).toBe(
      'claimed',
    );

    await harness.commands.erase(command.id, 'tenant-a');

    expect(await finishCommand(harness.worker, command, { status: 'completed', result: { done: true } })).toBe(false);
    expect(await finishCommand(harness.worker, command, { status: 'failed', error: { code: 'SYSTEM_ERROR', message: 'x' } })).toBe(false);
    expect(harness.commands.records.size).toBe(0);
  });

  it('stops a sales phase erased while it writes: no output kept, no copywriter child, the job done without a retry', async () => {
    const offline = createOfflineLlm();
    const hooks: { beforeAnswer?: () => Promise<unknown> } = {};
    const llm: LlmClient = {
      ...offline,
      async completeJson(request) {
        await hooks.beforeAnswer?.();
        return offline.completeJson(request);
      },
    };
    const harness = leadFollowUpHarness({ llm });
    const { command, job } = await harness.accept({});
    hooks.beforeAnswer = () => harness.commands.erase(command.id, 'tenant-a');

    await harness.deliverSales(job);

    // Its output could not be kept (the command is gone): the worker stops there, with nothing to retry.
    expect(harness.queue.resent).toEqual([]);
    expect(harness.commands.records.size).toBe(0);
    expect(harness.queue.sent).toEqual([]);
    expect(harness.deadLetters).toEqual([]);
  });

  it('still dead-letters a job naming a command that never existed', async () => {
    const harness = leadFollowUpHarness({ script: [{ offline: true }] });
    const { command, job } = await harness.accept({});
    harness.commands.records.delete(command.id);

    await harness.deliverSales(job);

    expect(harness.deadLetters.map((letter) => letter.reason)).toEqual([`No command ${command.id} exists for this job`]);
  });

  it("refuses to erase another tenant's command", async () => {
    const harness = leadFollowUpHarness();
    const { command } = await harness.accept({});
    expect(await harness.commands.erase(command.id, 'tenant-b')).toBe(false);
    expect(harness.commands.records.has(command.id)).toBe(true);
  });
});
