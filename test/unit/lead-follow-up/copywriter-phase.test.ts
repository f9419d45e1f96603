import { readCommand } from '../../../shared/commands/kind';
import type { StoredCommand as CommandRecord } from '../../../shared/commands/record';
import { copywriterKind } from '../../../shared/lead-follow-up/kinds';
import { runCopywriterPhase } from '../../../shared/lead-follow-up/copywriter-phase';
import type { ChannelMessages } from '../../../shared/lead-follow-up/message-checks';
import { LlmUnavailableError } from '../../../shared/providers/llm/port';
import { DEMO, demoSite, leadFollowUpHarness, type ScriptedAnswer } from './fixtures';

const refined = (messages: ChannelMessages) =>
  Object.fromEntries(
    Object.entries(messages).map(([channel, item]) => [
      channel,
      { title: `${item.title} (refined)`, message: `${item.message} Refined by Riley.` },
    ]),
  );

/** Runs the sales phase up to the hand-off; returns the parent, the child id and the copywriter job. */
type Harness = ReturnType<typeof leadFollowUpHarness>;

async function handedOff(script: ScriptedAnswer[]) {
  const harness = leadFollowUpHarness({ script: [{ offline: true }, ...script] });
  const { command, job } = await harness.accept({});
  await harness.deliverSales(job);
  const parent = harness.commands.records.get(command.id)!;
  const childId = parent.child_ids![0]!;
  const copywriterJob = harness.queue.sent.find((sent) => sent.queue === 'copywriter')!.job;
  const salesMessages = (parent.progress as { sales: { messages: ChannelMessages } }).sales.messages;
  return { harness, parentId: command.id, childId, copywriterJob, salesMessages };
}

/**
 * Runs the copywriter phase on its own, as a worker that dies after the phase (the parent completed) and before the
 * child's terminal write: the child is left in progress, its lease given back.
 */
async function runWithoutFinishingChild(harness: Harness, childId: string, copywriterJob: Harness['queue']['sent'][number]['job']) {
  const child = (await harness.commands.claim(
    childId,
    { tenantId: 'tenant-a', type: 'copywriter' },
    harness.clock.now(),
    harness.clock.now() + 1000,
  )) as { command: CommandRecord };
  const typed = readCommand(copywriterKind, child.command);
  await runCopywriterPhase(harness.copywriterDeps, { command: typed, request: typed.request, job: copywriterJob, attempt: 1 });
  await harness.commands.release(childId);
}

/** A harness on the same commands whose site no longer has the copywriter agent (removed after the hand-off). */
function withoutCopywriterAgent(harness: Harness): Harness {
  const site = demoSite();
  site.agents = site.agents!.filter((agent) => agent.id !== DEMO.copywriterId);
  const local = leadFollowUpHarness({ sites: [site] });
  for (const [id, record] of harness.commands.records) local.commands.records.set(id, record);
  return local;
}

describe('copywriter phase', () => {
  it('refines every channel, keeps the strategies, completes the child and then the parent', async () => {
    let draft: ChannelMessages = {};
    const { harness, parentId, childId, copywriterJob, salesMessages } = await handedOff([{ answer: () => refined(draft) }]);
    draft = salesMessages;

    await harness.deliverCopywriter(copywriterJob);

    const parent = harness.commands.records.get(parentId)!;
    const child = harness.commands.records.get(childId)!;
    expect(parent.status).toBe('completed');
    expect(parent.result!.command_ids).toEqual({ sales: parentId, copywriter: childId });
    const final = parent.result!.messages as ChannelMessages;
    expect(final.email?.title).toBe(`${salesMessages.email!.title} (refined)`);
    expect(final.email?.strategy).toBe(salesMessages.email!.strategy);
    expect(Object.keys(final)).toEqual(['email', 'messaging_app', 'notification', 'web']);
    expect(parent.warnings).toBeUndefined();
    expect(child).toMatchObject({ status: 'completed', result: { parent_id: parentId, messages: final, generated_by: 'openai' } });
    const prompt = harness.llmRequests[1]!.messages;
    expect(prompt[0]?.content).toContain('You are Riley (copywriter)');
    expect(prompt[0]?.content).toContain('Warm, plain-spoken tone.');
  });

  it('when refinement fails, fails the child with the reason and completes the parent with the sales content', async () => {
    const unavailable = new LlmUnavailableError('OpenAI answered 503 server_error after 3 attempts', 503);
    const { harness, parentId, childId, copywriterJob, salesMessages } = await handedOff([{ error: unavailable }]);

    await harness.deliverCopywriter(copywriterJob);

    const parent = harness.commands.records.get(parentId)!;
    expect(parent.status).toBe('completed');
    expect(parent.result!.command_ids).toEqual({ sales: parentId, copywriter: null });
    expect(parent.result!.messages).toEqual(salesMessages);
    expect(parent.warnings).toEqual([{ code: 'SALES_COMMAND_FAILED', message: expect.stringContaining('503') }]);
    expect(harness.commands.records.get(childId)).toMatchObject({
      status: 'failed',
      error: { code: 'SALES_COMMAND_FAILED', message: expect.stringContaining('the sales content stands') },
    });
  });

  it('when the refined copy fails the checks after one repair, the sales content stands', async () => {
    const withPlaceholder = { title: 'Hi [Name]', message: 'Dear {first_name}' };
    const bad = { email: withPlaceholder, messaging_app: withPlaceholder, notification: withPlaceholder, web: withPlaceholder };
    const { harness, parentId, childId, copywriterJob } = await handedOff([{ value: bad }, { value: bad }]);

    await harness.deliverCopywriter(copywriterJob);

    expect(harness.commands.records.get(parentId)).toMatchObject({
      status: 'completed',
      result: { command_ids: { sales: parentId, copywriter: null } },
      warnings: [{ code: 'NO_CONTENT_GENERATED' }],
    });
    expect(harness.commands.records.get(childId)).toMatchObject({ status: 'failed', error: { code: 'NO_CONTENT_GENERATED' } });
  });

  it('finishes both commands when redelivered after a crash before the parent was completed, refining again', async () => {
    const { harness, parentId, childId, copywriterJob } = await handedOff([{ offline: true }, { offline: true }]);
    const complete = harness.commands.complete;
    let crashes = 1;
    harness.commands.complete = async (command, ...rest) => {
      if (command.id === parentId && crashes-- > 0) throw new Error('connection reset');
      return complete(command, ...rest);
    };

    await harness.deliverCopywriter(copywriterJob);
    // The fault is the infrastructure's: the job is queued again, after its back-off, as attempt 2.
    expect(harness.queue.resent).toEqual([{ queue: 'copywriter', body: JSON.stringify(copywriterJob), delaySeconds: 0, attempt: 2 }]);
    expect(harness.commands.records.get(parentId)!.status).toBe('in_progress');
    // Nothing of the refinement was written: the parent's completion is its one write.
    expect(harness.commands.records.get(childId)!.progress).toBeUndefined();

    await harness.deliverCopywriter(copywriterJob, 2);

    expect(harness.llmRequests).toHaveLength(3); // one sales call, and the copywriter's again on the retry
    expect(harness.commands.records.get(parentId)).toMatchObject({ status: 'completed', result: { command_ids: { copywriter: childId } } });
    expect(harness.commands.records.get(childId)!.status).toBe('completed');
  });

  it('finishes a child whose refinement an earlier version kept in its progress without refining again', async () => {
    const { harness, parentId, childId, copywriterJob } = await handedOff([{ offline: true }]);
    const kept = {
      ok: true,
      messages: { email: { title: 'Kept', message: 'Kept copy.', strategy: 'kept' } },
      generated_by: 'offline',
      model: 'offline',
    };
    await harness.commands.recordProgress(childId, { progress: { copywriter: kept } }, harness.clock.now());

    await harness.deliverCopywriter(copywriterJob);

    expect(harness.llmRequests).toHaveLength(1); // the sales call only
    expect(harness.commands.records.get(parentId)).toMatchObject({
      status: 'completed',
      result: { messages: kept.messages, command_ids: { copywriter: childId } },
    });
    expect(harness.commands.records.get(childId)).toMatchObject({ status: 'completed', result: { messages: kept.messages } });
  });

  it('finishes the child when redelivered after a crash between the parent completion and its own', async () => {
    const { harness, parentId, childId, copywriterJob } = await handedOff([{ offline: true }]);
    await runWithoutFinishingChild(harness, childId, copywriterJob);
    expect(harness.commands.records.get(parentId)!.status).toBe('completed');
    expect(harness.commands.records.get(childId)!.status).toBe('in_progress');

    await harness.deliverCopywriter(copywriterJob, 2);

    // Its outcome is read off the parent: the same copy, not a second refinement.
    const parentResult = harness.commands.records.get(parentId)!.result!;
    expect(harness.commands.records.get(childId)).toMatchObject({
      status: 'completed',
      result: { parent_id: parentId, messages: parentResult.messages, generated_by: parentResult.generated_by },
    });
    expect(harness.llmRequests).toHaveLength(2);
  });

  it('ignores a duplicate job once the child is finished', async () => {
    const { harness, parentId, copywriterJob } = await handedOff([{ offline: true }]);
    await harness.deliverCopywriter(copywriterJob);
    const before = structuredClone(harness.commands.records.get(parentId));

    await harness.deliverCopywriter(copywriterJob, 2);

    expect(harness.commands.records.get(parentId)).toEqual(before);
    expect(harness.llmRequests).toHaveLength(2);
  });

  it('lets the sales content stand when the copywriter agent is gone by the time the job runs', async () => {
    const { harness, parentId, childId, copywriterJob } = await handedOff([]);
    const local = withoutCopywriterAgent(harness);

    await local.deliverCopywriter(copywriterJob);

    expect(local.commands.records.get(parentId)).toMatchObject({ status: 'completed', warnings: [{ code: 'AGENT_NOT_FOUND' }] });
    expect(local.commands.records.get(childId)).toMatchObject({ status: 'failed', error: { code: 'AGENT_NOT_FOUND' } });
    expect(local.llmRequests).toHaveLength(0);
  });

  it('fails the child with the reason its finished parent holds when redelivered after a crash between the completions', async () => {
    const { harness, parentId, childId, copywriterJob } = await handedOff([]);
    const local = withoutCopywriterAgent(harness);
    await runWithoutFinishingChild(local, childId, copywriterJob);
    expect(local.commands.records.get(childId)!.status).toBe('in_progress');

    await local.deliverCopywriter(copywriterJob, 2);

    expect(local.commands.records.get(parentId)).toMatchObject({ status: 'completed', result: { command_ids: { copywriter: null } } });
    expect(local.commands.records.get(childId)).toMatchObject({ status: 'failed', error: { code: 'AGENT_NOT_FOUND' } });
  });

  it('refuses a copywriter job its parent does not list', async () => {
    const { harness, parentId, childId, copywriterJob } = await handedOff([]);
    const parent = harness.commands.records.get(parentId)!;
    harness.commands.records.set(parentId, { ...parent, child_ids: [] });

    await harness.deliverCopywriter(copywriterJob);

    expect(harness.commands.records.get(childId)).toMatchObject({ status: 'failed', error: { code: 'INVALID_REQUEST' } });
    expect(harness.commands.records.get(parentId)!.status).toBe('in_progress');
  });
});
