import type { Principal } from '../../shared/access/api-keys';
import { respondWithCommand, type CommandPresenter } from '../../shared/api/command-responses';
import { answerGetCommand, readCommandFor } from '../../shared/api/get-command';
import type { CommandRecord } from '../../shared/commands/record';
import type { CommandStore } from '../../shared/commands/store';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { newId } from '../../shared/platform/ids';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/** How the API answers about a command: waiting, `Preference-Applied`, and reading it back. */
let services: EmbeddedServices;
let store: CommandStore;
beforeAll(async () => {
  services = await startEmbeddedServices();
  store = dynamoCommandStore(services.db, services.aws.tableName);
});
afterAll(() => services.stop());

const principal: Principal = { tenantId: 'tenant-a', siteIds: ['site-1'], keyId: 'key-a' };
const presenter: CommandPresenter = { accepted: () => ({ note: 'accepted' }) };

const recorded = async (): Promise<CommandRecord> => {
  const now = new Date().toISOString();
  const command: CommandRecord = {
    id: newId(),
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: principal.tenantId,
    site_id: 'site-1',
    request: {},
    created_at: now,
    updated_at: now,
    attempts: 0,
  };
  await store.create(command);
  return command;
};

describe('respondWithCommand', () => {
  it('sends Preference-Applied with the 200 a wait produced', async () => {
    const command = await recorded();
    const answer = respondWithCommand(store, command, 'wait=5', presenter, 25);
    await store.complete(command, { messages: {} }, Date.now());
    const result = await answer;
    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({ location: `/api/commands/${command.id}`, 'preference-applied': 'wait=5' });
  });

  it('sends Preference-Applied with the error a wait produced', async () => {
    const command = await recorded();
    const answer = respondWithCommand(store, command, 'wait=5', presenter, 25);
    await store.fail(command, { code: 'SALES_COMMAND_FAILED', message: 'no model' }, Date.now());
    const result = await answer;
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body)).toMatchObject({ success: false, error: { code: 'SALES_COMMAND_FAILED' } });
    expect(result.headers).toMatchObject({ location: `/api/commands/${command.id}`, 'preference-applied': 'wait=5' });
  });

  it('sends no Preference-Applied when the wait timed out', async () => {
    const command = await recorded();
    const result = await respondWithCommand(store, command, 'wait=1', presenter, 25);
    expect(result.statusCode).toBe(202);
    expect(result.headers['preference-applied']).toBeUndefined();
    expect(result.headers.location).toBe(`/api/commands/${command.id}`);
  });

  it('sends no Preference-Applied when no wait was asked for, even for a finished command', async () => {
    const command = await recorded();
    await store.complete(command, { messages: {} }, Date.now());
    const result = await respondWithCommand(store, (await store.get(command.id))!, undefined, presenter, 25);
    expect(result.statusCode).toBe(200);
    expect(result.headers['preference-applied']).toBeUndefined();
  });
});

describe('answerGetCommand', () => {
  it('answers 200 with Preference-Applied when the wait saw the command end', async () => {
    const command = await recorded();
    const answer = answerGetCommand(store, principal, command.id, 'wait=5', 25);
    await store.complete(command, { messages: {} }, Date.now());
    const result = await answer;
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).data).toMatchObject({ command_id: command.id, status: 'completed' });
    expect(result.headers['preference-applied']).toBe('wait=5');
  });

  it('answers 200 without Preference-Applied when the wait timed out', async () => {
    const command = await recorded();
    const result = await answerGetCommand(store, principal, command.id, 'wait=1', 25);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).data).toMatchObject({ command_id: command.id, status: 'in_progress' });
    expect(result.headers['preference-applied']).toBeUndefined();
  });
});

describe('readCommandFor', () => {
  it('reads an upper-case command id as the same command', async () => {
    const command = await recorded();
    expect((await readCommandFor(store, principal, command.id.toUpperCase())).id).toBe(command.id);
  });

  it("refuses another tenant's command and malformed ids alike, without echoing a long id", async () => {
    const command = await recorded();
    await expect(readCommandFor(store, { ...principal, tenantId: 'tenant-b' }, command.id)).rejects.toMatchObject({
      code: 'COMMAND_NOT_FOUND',
      message: `Command ${command.id} was not found.`,
    });
    const longId = `${'f'.repeat(20)}${'x'.repeat(10_000)}`;
    await expect(readCommandFor(store, principal, longId)).rejects.toMatchObject({
      code: 'COMMAND_NOT_FOUND',
      message: `Command ${'f'.repeat(20)}… was not found.`,
    });
  });
});
