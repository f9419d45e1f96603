import { CommandGoneError, type CommandStore } from '../../shared/commands/store';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import type { CommandRecord } from '../../shared/commands/record';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../../shared/platform/ids';
import { recordUsage, UsageMeter, usageTargetOf, withUsageMeter } from '../../shared/usage/meter';
import { addUsage, commandsCounted, countersOf, isEmptyUsage, modelTokens, totalTokens } from '../../shared/usage/usage';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

let services: EmbeddedServices;
let store: CommandStore;

beforeAll(async () => {
  services = await startEmbeddedServices();
  store = dynamoCommandStore(services.db, services.aws.tableName);
});
afterAll(() => services.stop());

const newCommand = (): CommandRecord => ({
  id: newId(),
  type: 'lead_follow_up',
  status: 'in_progress',
  tenant_id: 'tenant-a',
  site_id: 'site-1',
  request: { a: 1 },
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  attempts: 0,
});

const expected = { tenantId: 'tenant-a', type: 'lead_follow_up' } as const;

describe('dynamoCommandStore', () => {
  it('creates a command once; a second create with the same id is refused', async () => {
    const command = newCommand();
    expect(await store.create(command)).toBe(true);
    expect(await store.create({ ...command, request: { overwritten: true } })).toBe(false);
    expect((await store.get(command.id))?.request).toEqual({ a: 1 });
  });

  it('moves in_progress → completed once, and a completed command never changes again', async () => {
    const command = newCommand();
    await store.create(command);
    expect(await store.complete(command, { answer: 1 }, Date.now())).toBe(true);
    expect(await store.complete(command, { answer: 2 }, Date.now())).toBe(false);
    expect(await store.fail(command, { code: 'SYSTEM_ERROR', message: 'x' }, Date.now())).toBe(false);
    expect(await store.recordProgress(command.id, { progress: { late: true } }, Date.now())).toBe(false);
    const stored = await store.get(command.id);
    expect(stored).toMatchObject({ status: 'completed', result: { answer: 1 } });
    expect(stored?.error).toBeUndefined();
    expect(stored?.progress).toBeUndefined();
  });

  it('moves in_progress → failed once, and a failed command cannot complete', async () => {
    const command = newCommand();
    await store.create(command);
    expect(await store.fail(command, { code: 'SALES_COMMAND_FAILED', message: 'provider down' }, Date.now())).toBe(true);
    expect(await store.complete(command, { late: true }, Date.now())).toBe(false);
    expect(await store.get(command.id)).toMatchObject({ status: 'failed', error: { code: 'SALES_COMMAND_FAILED' } });
  });

  it('removes a command’s progress with its terminal write, completed or failed, a progress in the patch too', async () => {
    const completed = newCommand();
    const failed = newCommand();
    for (const command of [completed, failed]) {
      await store.create(command);
      expect(await store.recordProgress(command.id, { progress: { draft: 'x'.repeat(2000) } }, Date.now())).toBe(true);
      expect((await store.get(command.id))?.progress).toEqual({ draft: 'x'.repeat(2000) });
    }
    const patch = { progress: { draft: 'again' }, warnings: [{ code: 'SYSTEM_ERROR' as const, message: 'noted' }] };
    expect(await store.complete(completed, { answer: 1 }, Date.now(), patch)).toBe(true);
    expect(await store.fail(failed, { code: 'SYSTEM_ERROR', message: 'x' }, Date.now(), patch)).toBe(true);
    for (const command of [completed, failed]) {
      const stored = await store.get(command.id);
      expect(stored).not.toHaveProperty('progress');
      expect(stored?.warnings).toEqual(patch.warnings);
    }
  });

  it('lets one worker hold a command at a time, and another take it once the lease runs out', async () => {
    const command = newCommand();
    await store.create(command);
    const now = Date.now();
    const first = await store.claim(command.id, expected, now, now + 1_000);
    expect(first.kind).toBe('claimed');
    expect(first.kind === 'claimed' && first.command.attempts).toBe(1);
    expect((await store.claim(command.id, expected, now + 10, now + 1_010)).kind).toBe('leased');
    const afterExpiry = await store.claim(command.id, expected, now + 1_001, now + 2_001);
    expect(afterExpiry.kind === 'claimed' && afterExpiry.command.attempts).toBe(2);
  });

  it('reports a terminal command and a missing one to a claiming worker', async () => {
    const command = newCommand();
    await store.create(command);
    await store.complete(command, {}, Date.now());
    expect((await store.claim(command.id, expected, Date.now(), Date.now() + 1000)).kind).toBe('terminal');
    expect((await store.claim(newId(), expected, Date.now(), Date.now() + 1000)).kind).toBe('missing');
  });

  it('releases a lease so the next delivery can claim at once', async () => {
    const command = newCommand();
    await store.create(command);
    const now = Date.now();
    await store.claim(command.id, expected, now, now + 60_000);
    await store.release(command.id);
    expect((await store.claim(command.id, expected, now + 1, now + 60_000)).kind).toBe('claimed');
  });

  it("erases a command of the given tenant only, in any state; a worker's later writes to it then change nothing", async () => {
    const command = newCommand();
    await store.create(command);
    const now = Date.now();
    await store.claim(command.id, expected, now, now + 60_000);

    expect(await store.erase(command.id, 'tenant-b')).toBe(false);
    expect(await store.get(command.id)).toBeDefined();
    expect(await store.erase(command.id, 'tenant-a')).toBe(true);

    expect(await store.recordProgress(command.id, { progress: { step: 1 } }, now)).toBe(false);
    expect(await store.complete(command, { answer: 1 }, now)).toBe(false);
    expect(await store.fail(command, { code: 'SYSTEM_ERROR', message: 'x' }, now)).toBe(false);
    expect(await store.get(command.id)).toBeUndefined();
    expect(await store.erase(command.id, 'tenant-a')).toBe(false);
  });

  it('marks an erased command, so a job that comes for it later is told so rather than "missing"', async () => {
    const command = newCommand();
    await store.create(command);
    expect(await store.wasErased(command.id)).toBe(false);
    expect(await store.erase(command.id, 'tenant-a')).toBe(true);

    expect(await store.wasErased(command.id)).toBe(true);
    const now = Date.now();
    expect(await store.claim(command.id, expected, now, now + 60_000)).toEqual({ kind: 'erased' });
    expect(await store.claim(newCommand().id, expected, now, now + 60_000)).toEqual({ kind: 'missing' });
  });

  it('erases only an unchanged command when asked to (a worker that wrote meanwhile makes the caller read it again)', async () => {
    const command = newCommand();
    await store.create(command);
    const now = Date.now() + 1_000;
    await store.recordProgress(command.id, { child_ids: ['child'] }, now);

    expect(await store.erase(command.id, 'tenant-a', command.updated_at)).toBe(false);
    expect(await store.erase(command.id, 'tenant-a', new Date(now).toISOString())).toBe(true);
  });

  it('writes a child phase only while its parent exists', async () => {
    const parent = newCommand();
    await store.create(parent);
    const child = { ...newCommand(), type: 'copywriter' as const, parent_id: parent.id };
    expect(await store.create(child)).toBe(true);
    expect(await store.create(child)).toBe(false);

    await store.erase(parent.id, 'tenant-a');
    const orphan = { ...newCommand(), type: 'copywriter' as const, parent_id: parent.id };
    await expect(store.create(orphan)).rejects.toBeInstanceOf(CommandGoneError);
    expect(await store.get(orphan.id)).toBeUndefined();
  });

  it('writes a child phase with its parent’s hand-off in one transaction, only while the parent is in progress', async () => {
    const parent = newCommand();
    await store.create(parent);
    const child = { ...newCommand(), type: 'copywriter' as const, parent_id: parent.id };
    const parentPatch = { progress: { sales: 'drafts' }, child_ids: [child.id] };
    expect(await store.create(child, { parentPatch })).toBe(true);
    expect(await store.get(parent.id)).toMatchObject({ status: 'in_progress', ...parentPatch, updated_at: child.created_at });
    expect(await store.get(child.id)).toMatchObject({ status: 'in_progress', parent_id: parent.id });

    // A parent that ended meanwhile takes no hand-off, and the child is not written.
    await store.fail(parent, { code: 'SYSTEM_ERROR', message: 'x' }, Date.now());
    const late = { ...newCommand(), type: 'copywriter' as const, parent_id: parent.id };
    await expect(store.create(late, { parentPatch: { child_ids: [child.id, late.id] } })).rejects.toBeInstanceOf(CommandGoneError);
    expect(await store.get(late.id)).toBeUndefined();
    expect((await store.get(parent.id))?.child_ids).toEqual([child.id]);
  });

  it('counts a phase’s usage with its parent’s terminal write, once, beside the parent’s own count of one command', async () => {
    const tenant = `tenant-${newId().slice(-8)}`;
    const parent = { ...newCommand(), tenant_id: tenant };
    await store.create(parent);
    const child = { ...newCommand(), tenant_id: tenant, type: 'copywriter' as const, parent_id: parent.id };
    await store.create(child);
    const meter = new UsageMeter(usageTargetOf(child));
    const completed = await withUsageMeter(meter, async () => {
      recordUsage(modelTokens('gpt-test', 30, 7));
      return store.complete(parent, { answer: 1 }, Date.now());
    });
    expect(completed).toBe(true);
    expect(isEmptyUsage(meter.take())).toBe(true);
    expect(totalTokens(await store.usageOf(child.id))).toBe(37);
    expect(totalTokens(await store.usageOf(parent.id))).toBe(37);
    // The tenant's totals: the tokens under the phase's type, the ended command under the parent's, all in the month.
    const { Items = [] } = await services.db.send(
      new QueryCommand({
        TableName: services.aws.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USAGE#${tenant}` },
      }),
    );
    const sumOf = (prefix: string) => addUsage(...Items.filter((item) => String(item.sk).startsWith(prefix)).map(countersOf));
    expect(totalTokens(sumOf(`DAY#${new Date().toISOString().slice(0, 10)}#copywriter#`))).toBe(37);
    expect(commandsCounted(sumOf(`DAY#${new Date().toISOString().slice(0, 10)}#lead_follow_up#`))).toBe(1);
    expect(totalTokens(sumOf('MONTH#'))).toBe(37);
    expect(commandsCounted(sumOf('MONTH#'))).toBe(1);
  });
});
