import { finishCommand, type CommandEnding } from '../../shared/commands/finish';
import { fixedClock, inMemoryCommands, newCommand } from './lead-follow-up/fixtures';

describe('finishCommand', () => {
  it('makes the terminal transition once, counts it and runs the finish hooks once', async () => {
    const commands = inMemoryCommands();
    const command = newCommand({ id: '01a20000-0000-7000-8000-000000000001', request: {} });
    await commands.create(command);
    const counted: string[] = [];
    const hooked: { id: string; ending: CommandEnding }[] = [];
    const deps = {
      commands,
      clock: fixedClock(),
      metrics: { count: (metric: string, type: string) => counted.push(`${metric}:${type}`) },
      onFinished: [async (finished: { id: string }, ending: CommandEnding) => void hooked.push({ id: finished.id, ending })],
    };

    expect(await finishCommand(deps, command, { status: 'completed', result: { ok: 1 } })).toBe(true);
    expect(await finishCommand(deps, command, { status: 'failed', error: { code: 'SYSTEM_ERROR', message: 'late' } })).toBe(false);

    expect(commands.records.get(command.id)).toMatchObject({ status: 'completed', result: { ok: 1 } });
    expect(counted).toEqual([`CommandCompleted:${command.type}`]);
    expect(hooked).toEqual([{ id: command.id, ending: { status: 'completed', result: { ok: 1 } } }]);
  });
});
