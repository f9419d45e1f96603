import {
  callStateOf,
  isFinalCallState,
  parseStatusCallback,
  StatusCallbackError,
  TWILIO_CALL_STATUSES,
} from '../../../shared/providers/telephony/call-status';

const sid = 'CA0123456789abcdef0123456789abcdef';

describe('callStateOf', () => {
  it.each([
    ['queued', 'pending'],
    ['initiated', 'pending'],
    ['ringing', 'pending'],
    ['in-progress', 'in_progress'],
    ['completed', 'completed'],
    ['busy', 'failed'],
    ['failed', 'failed'],
    ['no-answer', 'failed'],
    ['canceled', 'failed'],
  ])('maps %s to %s (docs/voice-calls.md)', (status, state) => {
    expect(callStateOf(status)).toBe(state);
  });

  it('knows no other status word', () => {
    expect(callStateOf('answered')).toBeUndefined();
    expect(callStateOf('IN-PROGRESS')).toBeUndefined();
    expect(callStateOf('toString')).toBeUndefined();
    expect(TWILIO_CALL_STATUSES).toHaveLength(9);
  });
});

describe('isFinalCallState', () => {
  it('holds completed and failed final, pending and in_progress not', () => {
    expect(isFinalCallState('completed')).toBe(true);
    expect(isFinalCallState('failed')).toBe(true);
    expect(isFinalCallState('pending')).toBe(false);
    expect(isFinalCallState('in_progress')).toBe(false);
  });
});

describe('parseStatusCallback', () => {
  it('reads a final callback with its order, time, duration and answering party', () => {
    expect(
      parseStatusCallback({
        CallSid: sid,
        CallStatus: 'completed',
        SequenceNumber: '3',
        Timestamp: 'Tue, 24 Nov 2026 10:01:05 +0000',
        CallDuration: '65',
        AnsweredBy: 'human',
        AccountSid: 'AC0123456789abcdef0123456789abcdef',
      }),
    ).toEqual({
      callSid: sid,
      callStatus: 'completed',
      state: 'completed',
      sequenceNumber: 3,
      sequenceSource: 'twilio',
      timestamp: '2026-11-24T10:01:05.000Z',
      durationSeconds: 65,
      answeredBy: 'human',
    });
  });

  it('derives the order from the status when SequenceNumber is absent, and says so', () => {
    const order = ['initiated', 'ringing', 'in-progress', 'no-answer'].map((status) =>
      parseStatusCallback({ CallSid: sid, CallStatus: status }),
    );
    expect(order.map((callback) => callback.sequenceNumber)).toEqual([0, 1, 2, 3]);
    expect(order.every((callback) => callback.sequenceSource === 'status-rank')).toBe(true);
    expect(order[3]!.state).toBe('failed');
  });

  it('treats empty parameters as absent (Twilio sends AnsweredBy= without machine detection)', () => {
    const callback = parseStatusCallback({ CallSid: sid, CallStatus: 'ringing', SequenceNumber: '1', AnsweredBy: '', CallDuration: '' });
    expect(callback).not.toHaveProperty('answeredBy');
    expect(callback).not.toHaveProperty('durationSeconds');
  });

  it.each([
    [{ CallStatus: 'ringing' }, /CallSid is missing/],
    [{ CallSid: 'CA123', CallStatus: 'ringing' }, /CallSid must be CA followed by 32 hex digits/],
    [{ CallSid: sid }, /CallStatus is missing/],
    [{ CallSid: sid, CallStatus: 'answered' }, /CallStatus/],
    [{ CallSid: sid, CallStatus: 'ringing', SequenceNumber: '-1' }, /SequenceNumber must be a whole number/],
    [{ CallSid: sid, CallStatus: 'ringing', SequenceNumber: '1.5' }, /SequenceNumber/],
    [{ CallSid: sid, CallStatus: 'completed', CallDuration: 'ten' }, /CallDuration/],
    [{ CallSid: sid, CallStatus: 'completed', Timestamp: 'yesterday-ish' }, /Timestamp must be a date/],
    [{ CallSid: sid, CallStatus: 'completed', AnsweredBy: '<script>' }, /AnsweredBy/],
  ])('refuses %j', (params, message) => {
    expect(() => parseStatusCallback(params as Record<string, string>)).toThrow(StatusCallbackError);
    expect(() => parseStatusCallback(params as Record<string, string>)).toThrow(message);
  });

  it('never echoes a parameter value in its error', () => {
    expect(() => parseStatusCallback({ CallSid: 'CAsecret-looking-value', CallStatus: 'ringing' })).toThrow(/^(?!.*secret-looking-value)/s);
  });
});
