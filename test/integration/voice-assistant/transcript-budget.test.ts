/**
 * The transcript's byte budget, against the embedded DynamoDB and the real
 * socket function: entries are kept until their bytes reach
 * `maxTranscriptBytes` (counted by the same conditional write), after which
 * the store answers `full` and the assistant closes the call.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TranscriptEntry } from '../../../shared/calls/record';
import { commandKey } from '../../../shared/commands/store';
import { itemSize } from '../../../shared/platform/item-size';
import { RELAY_LIMITS } from '../../../shared/voice-assistant/limits';
import { dynamoTranscriptStore } from '../../../shared/voice-assistant/transcript-store';
import { widest } from '../../support/item-size';
import { voiceHarness, type VoiceHarness } from './harness';

let voice: VoiceHarness;

beforeAll(async () => {
  voice = await voiceHarness();
}, 60_000);
afterAll(() => voice.stop());

describe("a call's transcript", () => {
  it('takes entries until their bytes reach the budget, and the assistant then closes the call', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    const { db, aws } = voice.services;
    const transcripts = dynamoTranscriptStore(db, aws.tableName);
    const at = new Date().toISOString();
    const said = (role: TranscriptEntry['role'], length: number): TranscriptEntry => ({ role, content: widest(length), at });

    // The widest caller turns and replies the relay keeps (three bytes a character).
    let entries = 0;
    let outcome = await transcripts.append(call.commandId, call.callSid, [said('user', RELAY_LIMITS.maxPromptCharacters)]);
    while (outcome === 'appended') {
      entries += 1;
      outcome = await transcripts.append(call.commandId, call.callSid, [
        said(
          entries % 2 === 0 ? 'user' : 'assistant',
          entries % 2 === 0 ? RELAY_LIMITS.maxPromptCharacters : RELAY_LIMITS.maxReplyCharacters,
        ),
      ]);
    }

    expect(outcome).toBe('full');
    expect(entries).toBeLessThan(RELAY_LIMITS.maxTranscriptEntries);
    const { Item } = await db.send(new GetCommand({ TableName: aws.tableName, Key: commandKey(call.commandId), ConsistentRead: true }));
    expect(Item!.transcript_bytes).toBeLessThanOrEqual(RELAY_LIMITS.maxTranscriptBytes);
    expect(Item!.transcript_bytes).toBeGreaterThan(RELAY_LIMITS.maxTranscriptBytes - 6_100);
    expect(itemSize({ transcript: Item!.transcript })).toBeLessThanOrEqual(RELAY_LIMITS.maxTranscriptBytes + 'transcript'.length + 3);

    // Shorter entries still fit, until the last bytes are taken; then the next caller turn meets the full
    // transcript: the assistant says so and ends the call.
    const short = (): TranscriptEntry => ({ role: 'user', content: 'A short note about the budget, kept while it fits.', at });
    let shorter = 0;
    while ((await transcripts.append(call.commandId, call.callSid, [short()])) === 'appended') shorter += 1;
    expect(shorter).toBeGreaterThan(0);
    const reply = await caller.say('One more thing about the budget.');
    expect(reply).toContain('We have reached the length limit of this call.');
    expect(await caller.next('end')).toMatchObject({ type: 'end' });
    caller.close();
    await caller.closed;
  });
});
