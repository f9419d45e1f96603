import type { CallCommand, CallCommandFields } from '../../../shared/calls/record';
import type { CommandStore } from '../../../shared/commands/store';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { newId } from '../../../shared/platform/ids';
import { dynamoCallStore, type CallStore } from '../../../shared/stakeholder-coordination/call-store';
import { newCall } from '../../../shared/stakeholder-coordination/command-object';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/** The conditional writes of a command's live call, against the embedded DynamoDB (single-item updates only). */
let services: EmbeddedServices;
let commands: CommandStore;
let calls: CallStore;

beforeAll(async () => {
  services = await startEmbeddedServices();
  commands = dynamoCommandStore(services.db, services.aws.tableName);
  calls = dynamoCallStore(services.db, services.aws.tableName);
});
afterAll(() => services.stop());

const NOW = Date.parse('2026-11-20T09:00:00.000Z');

async function commandWithCall(): Promise<CallCommand> {
  const at = new Date(NOW).toISOString();
  const command: CallCommand = {
    id: newId(),
    type: 'stakeholder_coordination',
    status: 'in_progress',
    tenant_id: 'tenant-a',
    site_id: 'site-1',
    request: {},
    call: newCall('+14155550123', NOW),
    created_at: at,
    updated_at: at,
    attempts: 0,
  };
  await commands.create(command);
  return command;
}

const callOf = async (id: string) => (await commands.get<CallCommandFields>(id))?.call;
const placed = {
  provider: 'twilio' as const,
  providerCallId: 'CA00000000000000000000000000000001',
  providerStatus: 'queued',
  status: 'pending' as const,
};

describe('dynamoCallStore', () => {
  it('requests a call once: a second request finds it requested and changes nothing', async () => {
    const command = await commandWithCall();
    const requestedAt = await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 1);
    expect(requestedAt).toBe(new Date(NOW + 1).toISOString());
    expect(await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 2)).toBe(false);
    expect(await callOf(command.id)).toMatchObject({ status: 'pending', provider: 'twilio', requested_at: requestedAt });
  });

  it('records the provider call id once, only for the request that dialled', async () => {
    const command = await commandWithCall();
    const requestedAt = (await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 1)) as string;
    expect(await calls.recordPlaced(command.id, command.call!.id, new Date(NOW + 99).toISOString(), placed, NOW + 2)).toBe(false);
    expect(await calls.recordPlaced(command.id, command.call!.id, requestedAt, placed, NOW + 2)).toBe(true);
    expect(await calls.recordPlaced(command.id, command.call!.id, requestedAt, { ...placed, providerCallId: 'CA2' }, NOW + 3)).toBe(false);
    expect(await calls.failRequested(command.id, command.call!.id, requestedAt, 'late', NOW + 4)).toBe(false);
    expect(await callOf(command.id)).toMatchObject({
      status: 'pending',
      provider_call_id: placed.providerCallId,
      provider_status: 'queued',
    });
  });

  it('fails a call never requested, and then nothing requests it', async () => {
    const command = await commandWithCall();
    expect(await calls.failUnrequested(command.id, command.call!.id, 'telephony not configured', NOW + 1)).toBe(true);
    expect(await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 2)).toBe(false);
    expect(await callOf(command.id)).toMatchObject({ status: 'failed', reason: 'telephony not configured' });
    expect((await callOf(command.id))?.requested_at).toBeUndefined();
  });

  it('fails a requested call the provider never took, and leaves a placed one alone', async () => {
    const command = await commandWithCall();
    const requestedAt = (await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 1)) as string;
    expect(await calls.failUnrequested(command.id, command.call!.id, 'x', NOW + 2)).toBe(false);
    expect(await calls.failRequested(command.id, command.call!.id, requestedAt, 'the worker stopped', NOW + 2)).toBe(true);
    expect(await callOf(command.id)).toMatchObject({ status: 'failed', reason: 'the worker stopped' });
  });

  it('applies status callbacks in sequence order, ignores repeats and late ones, and never leaves a final state', async () => {
    const command = await commandWithCall();
    const requestedAt = (await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 1)) as string;
    await calls.recordPlaced(command.id, command.call!.id, requestedAt, placed, NOW + 2);
    const sid = placed.providerCallId;
    expect(
      await calls.applyStatus(command.id, { providerCallId: sid, status: 'pending', providerStatus: 'initiated', sequence: 0 }, NOW + 3),
    ).toBe(true);
    expect(
      await calls.applyStatus(
        command.id,
        { providerCallId: sid, status: 'in_progress', providerStatus: 'in-progress', sequence: 2 },
        NOW + 4,
      ),
    ).toBe(true);
    // Ringing arrives after answered: older, ignored.
    expect(
      await calls.applyStatus(command.id, { providerCallId: sid, status: 'pending', providerStatus: 'ringing', sequence: 1 }, NOW + 5),
    ).toBe(false);
    // Answered again (a retry): ignored.
    expect(
      await calls.applyStatus(
        command.id,
        { providerCallId: sid, status: 'in_progress', providerStatus: 'in-progress', sequence: 2 },
        NOW + 6,
      ),
    ).toBe(false);
    // Another call's callback: ignored.
    expect(
      await calls.applyStatus(command.id, { providerCallId: 'CA9', status: 'failed', providerStatus: 'busy', sequence: 9 }, NOW + 7),
    ).toBe(false);
    expect(
      await calls.applyStatus(
        command.id,
        { providerCallId: sid, status: 'completed', providerStatus: 'completed', sequence: 3, durationSeconds: 184, answeredBy: 'human' },
        NOW + 8,
      ),
    ).toBe(true);
    // A later event after a final state: ignored.
    expect(
      await calls.applyStatus(
        command.id,
        { providerCallId: sid, status: 'failed', providerStatus: 'failed', sequence: 4, reason: 'x' },
        NOW + 9,
      ),
    ).toBe(false);
    expect(await callOf(command.id)).toEqual({
      id: command.call!.id,
      status: 'completed',
      phone_number: '+14155550123',
      provider: 'twilio',
      provider_call_id: sid,
      provider_status: 'completed',
      requested_at: requestedAt,
      duration_seconds: 184,
      answered_by: 'human',
      last_sequence: 3,
      updated_at: new Date(NOW + 8).toISOString(),
    });
  });

  it('takes the CallSid of a callback that arrives before the worker recorded the call id, and then only that call’s', async () => {
    const command = await commandWithCall();
    // Not requested yet: nothing of Twilio's can be about it.
    expect(
      await calls.applyStatus(command.id, { providerCallId: 'CA1', status: 'pending', providerStatus: 'initiated', sequence: 0 }, NOW + 1),
    ).toBe(false);
    const requestedAt = (await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 2)) as string;
    expect(
      await calls.applyStatus(
        command.id,
        { providerCallId: placed.providerCallId, status: 'pending', providerStatus: 'ringing', sequence: 1 },
        NOW + 3,
      ),
    ).toBe(true);
    expect(
      await calls.applyStatus(command.id, { providerCallId: 'CA2', status: 'failed', providerStatus: 'busy', sequence: 2 }, NOW + 4),
    ).toBe(false);
    // The worker's late record changes nothing: the callback already holds the id and a newer status.
    expect(await calls.recordPlaced(command.id, command.call!.id, requestedAt, placed, NOW + 5)).toBe(false);
    expect(await callOf(command.id)).toMatchObject({
      status: 'pending',
      provider_call_id: placed.providerCallId,
      provider_status: 'ringing',
      last_sequence: 1,
    });
  });

  it('moves the call of a command that has completed: the call is the command’s live effect', async () => {
    const command = await commandWithCall();
    const requestedAt = (await calls.markRequested(command.id, command.call!.id, 'twilio', NOW + 1)) as string;
    await calls.recordPlaced(command.id, command.call!.id, requestedAt, placed, NOW + 2);
    expect(await commands.complete(command, { done: true }, NOW + 3)).toBe(true);
    expect(
      await calls.applyStatus(
        command.id,
        { providerCallId: placed.providerCallId, status: 'in_progress', providerStatus: 'in-progress', sequence: 2 },
        NOW + 4,
      ),
    ).toBe(true);
    expect(await commands.get<CallCommandFields>(command.id)).toMatchObject({
      status: 'completed',
      result: { done: true },
      call: { status: 'in_progress' },
    });
  });

  it('changes nothing on a command without a call, or one that does not exist', async () => {
    const at = new Date(NOW).toISOString();
    const id = newId();
    await commands.create({
      id,
      type: 'stakeholder_coordination',
      status: 'in_progress',
      tenant_id: 't',
      request: {},
      created_at: at,
      updated_at: at,
      attempts: 0,
    });
    expect(await calls.applyStatus(id, { providerCallId: 'CA1', status: 'completed', providerStatus: 'completed', sequence: 1 }, NOW)).toBe(
      false,
    );
    expect(
      await calls.applyStatus(newId(), { providerCallId: 'CA1', status: 'completed', providerStatus: 'completed', sequence: 1 }, NOW),
    ).toBe(false);
    expect((await commands.get<CallCommandFields>(id))?.call).toBeUndefined();
    expect(await calls.markRequested(newId(), 'call-1', 'twilio', NOW)).toBe(false);
  });
});
