import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '../../../infra/local/lambda-context';
import { signTwilioRequest } from '../../../infra/local/twilio-wire';
import { queueById } from '../../../shared/catalogue/job-types';
import type { CallCommand } from '../../../shared/calls/record';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types';
import { answerCallStatus } from '../../../shared/stakeholder-coordination/call-status-webhook';
import { dynamoCallStore } from '../../../shared/stakeholder-coordination/call-store';
import { eventually } from '../../support/embedded';
import { AUTH_TOKEN, callStatusWebhookOf, voiceHarness, type VoiceHarness } from './harness';

/**
 * The backstop of the post-call summary: API Gateway's `$disconnect` is
 * best-effort, so Twilio's signed `completed` status callback
 * (functions/webhooks/twilio-call-status.ts, composed with its settings)
 * requests the summary too. Either trigger alone queues it; both together
 * still queue it exactly once (one child, one job, one summary written).
 */
const CALL_STATUS = '/webhooks/twilio/call-status';
const PUBLIC_BASE_URL = 'https://switchboard.example.com';

let voice: VoiceHarness;
let webhook: (event: HttpEvent, context: Context) => Promise<HttpResult>;

beforeAll(async () => {
  voice = await voiceHarness();
  webhook = callStatusWebhookOf(voice, PUBLIC_BASE_URL);
}, 60_000);
afterAll(() => voice.stop());

const command = (id: string): Promise<CallCommand> => voice.stakeholder.command(id);

/** A status callback as Twilio sends it: form body, signed over PUBLIC_BASE_URL + path + query. */
function callbackEvent(commandId: string, params: Record<string, string>, authToken = AUTH_TOKEN): HttpEvent {
  const query = `command_id=${commandId}`;
  return {
    rawPath: CALL_STATUS,
    rawQueryString: query,
    queryStringParameters: { command_id: commandId },
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signTwilioRequest(authToken, `${PUBLIC_BASE_URL}${CALL_STATUS}?${query}`, params),
    },
    body: new URLSearchParams(params).toString(),
    isBase64Encoded: false,
  } as unknown as HttpEvent;
}

const callback = (call: { commandId: string; callSid: string }, status: string, sequence: number) =>
  webhook(
    callbackEvent(call.commandId, { CallSid: call.callSid, CallStatus: status, SequenceNumber: String(sequence), CallDuration: '42' }),
    lambdaContext('twilioCallStatusWebhook', 5),
  );

/**
 * How many jobs the summary queue holds (visible or in flight), read without
 * receiving any (a peek would count as a receive, and enough of them send a
 * job to the dead-letter queue).
 */
async function summaryQueueDepth(): Promise<number> {
  const { Attributes = {} } = await voice.services.aws.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: voice.services.aws.queues.summary.url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesNotVisible);
}

/** The post_call_summary jobs on the summary queue for the command's summary. */
async function jobsFor(commandId: string): Promise<unknown[]> {
  const childId = (await command(commandId)).meeting_summary?.command_id;
  return (await voice.summaryJobs()).filter((job) => job.command_id === childId);
}

describe('the completed status callback, backstop of the post-call summary', () => {
  it('queues the summary of a call whose socket never closed, once however often Twilio repeats the callback, and it is written once', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Yes, now is fine.');
    await caller.say('We decided to keep the January budget at 12000 dollars.');
    // The socket stays open: its $disconnect is the event that never arrives.

    const queued = await summaryQueueDepth();
    expect((await callback(call, 'in-progress', 1)).statusCode).toBe(204);
    expect((await command(call.commandId)).meeting_summary).toBeUndefined();
    expect((await callback(call, 'completed', 2)).statusCode).toBe(204);
    const stored = await command(call.commandId);
    expect(stored.call).toMatchObject({ status: 'completed', provider_call_id: call.callSid, last_sequence: 2 });
    expect(stored.meeting_summary).toMatchObject({ status: 'pending', command_id: expect.any(String) });
    expect(stored.child_ids).toEqual([stored.meeting_summary!.command_id]);
    expect(await command(stored.meeting_summary!.command_id!)).toMatchObject({
      type: 'post_call_summary',
      status: 'in_progress',
      parent_id: call.commandId,
    });

    // Twilio's retry of the same callback: 204, nothing new queued.
    expect((await callback(call, 'completed', 2)).statusCode).toBe(204);
    expect(await summaryQueueDepth()).toBe(queued + 1);
    expect((await command(call.commandId)).child_ids).toEqual([stored.meeting_summary!.command_id]);

    await voice.drainSummaries({ OPENAI_API_KEY: '' });
    const summarized = await command(call.commandId);
    expect(summarized.meeting_summary).toMatchObject({
      status: 'completed',
      command_id: stored.meeting_summary!.command_id,
      generated_by: 'offline',
      created_at: expect.any(String),
    });
    expect(await command(stored.meeting_summary!.command_id!)).toMatchObject({ status: 'completed' });

    // The socket's close, late: the summary stays as written, no second child.
    caller.close();
    await caller.closed;
    await eventually(async () => (voice.relay.open() === 0 ? true : undefined), 15_000, 'the socket to close');
    await voice.relay.settled();
    expect(await command(call.commandId)).toMatchObject({ meeting_summary: summarized.meeting_summary, child_ids: summarized.child_ids });
    expect(await summaryQueueDepth()).toBe(0);
  });

  it('queues nothing more when the socket closed first: one child, one job', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Sure, go ahead.');
    caller.close();
    await caller.closed;
    const requested = await eventually(async () => (await command(call.commandId)).meeting_summary, 15_000, 'the summary to be requested');
    expect((await callback(call, 'completed', 2)).statusCode).toBe(204);
    const stored = await command(call.commandId);
    expect(stored.meeting_summary).toEqual(requested);
    expect(stored.child_ids).toEqual([requested.command_id]);
    expect(await jobsFor(call.commandId)).toHaveLength(1);
  });

  it('queues one summary when the callback and the socket close race', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Hello, yes.');
    caller.close();
    expect((await callback(call, 'completed', 2)).statusCode).toBe(204);
    await caller.closed;
    await eventually(async () => (voice.relay.open() === 0 ? true : undefined), 15_000, 'the socket to close');
    await voice.relay.settled();
    const stored = await command(call.commandId);
    expect(stored.meeting_summary).toMatchObject({ status: 'pending' });
    expect(stored.child_ids).toEqual([stored.meeting_summary!.command_id]);
    expect(await jobsFor(call.commandId)).toHaveLength(1);
  });

  it('requests nothing for a call that did not complete, nor for a completed callback about another call', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('One moment please.');
    expect((await callback(call, 'ringing', 1)).statusCode).toBe(204);
    expect((await callback({ ...call, callSid: `CA${'e'.repeat(32)}` }, 'completed', 3)).statusCode).toBe(204);
    expect((await command(call.commandId)).meeting_summary).toBeUndefined();
    // An unsigned (forged) completed callback is refused and requests nothing.
    const forged = await webhook(
      callbackEvent(call.commandId, { CallSid: call.callSid, CallStatus: 'completed', SequenceNumber: '4' }, 'another-token'),
      lambdaContext('twilioCallStatusWebhook', 5),
    );
    expect(forged.statusCode).toBe(403);
    expect((await command(call.commandId)).meeting_summary).toBeUndefined();
    caller.close();
    await caller.closed;
  });

  it('answers 500 when the summary request fails, keeping the status, and asks again on Twilio’s retry', async () => {
    const call = await voice.placedCall();
    const { db, aws } = voice.services;
    const commands = dynamoCommandStore(db, aws.tableName);
    const told: string[] = [];
    const deps = {
      calls: dynamoCallStore(db, aws.tableName),
      authToken: async () => AUTH_TOKEN,
      publicBaseUrl: PUBLIC_BASE_URL,
      clock: { now: () => Date.now() },
      callEnded: {
        commands,
        onCallEnded: async (commandId: string) => {
          told.push(commandId);
          if (told.length === 1) throw new Error('The summary queue is unavailable');
        },
      },
    };
    const event = callbackEvent(call.commandId, { CallSid: call.callSid, CallStatus: 'completed', SequenceNumber: '2' });
    await expect(answerCallStatus(deps, event)).rejects.toThrow('The summary queue is unavailable');
    expect((await command(call.commandId)).call).toMatchObject({ status: 'completed', last_sequence: 2 });
    expect((await answerCallStatus(deps, event)).statusCode).toBe(204);
    expect(told).toEqual([call.commandId, call.commandId]);
    // Through the composed function, the failure is a 500 (Twilio retries a 5xx).
    const failing = callStatusWebhookOf(voice, PUBLIC_BASE_URL, {
      [queueById('summary').urlEnvVar]: `${aws.sqsEndpoint}/000000000000/no-such-queue`,
    }) as unknown as typeof webhook;
    const other = await voice.placedCall();
    const caller = await voice.answered(other);
    await caller.say('Fine, thanks.');
    const answer = await failing(
      callbackEvent(other.commandId, { CallSid: other.callSid, CallStatus: 'completed', SequenceNumber: '2' }),
      lambdaContext('twilioCallStatusWebhook', 5),
    );
    expect(answer.statusCode).toBe(500);
    expect((await command(other.commandId)).call).toMatchObject({ status: 'completed' });
    caller.close();
    await caller.closed;
  });
});
