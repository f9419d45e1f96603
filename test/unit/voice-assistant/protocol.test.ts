import { endMessage, parseInboundMessage, RelayProtocolError, textMessage } from '../../../shared/voice-assistant/protocol';

describe('ConversationRelay messages', () => {
  it('reads setup, prompt, interrupt, dtmf and error as Twilio sends them, extra fields allowed', () => {
    expect(
      parseInboundMessage(
        JSON.stringify({ type: 'setup', sessionId: 'VX1', callSid: 'CA1', from: '+1', to: '+2', customParameters: { command_id: 'x' } }),
      ),
    ).toMatchObject({ type: 'setup', callSid: 'CA1', customParameters: { command_id: 'x' } });
    expect(parseInboundMessage('{"type":"prompt","voicePrompt":"Hi there","lang":"en-US","last":true}')).toMatchObject({
      type: 'prompt',
      voicePrompt: 'Hi there',
      last: true,
    });
    expect(
      parseInboundMessage('{"type":"interrupt","utteranceUntilInterrupt":"Life is a","durationUntilInterruptMs":"460"}'),
    ).toMatchObject({
      type: 'interrupt',
      utteranceUntilInterrupt: 'Life is a',
    });
    expect(parseInboundMessage('{"type":"dtmf","digit":"#"}')).toEqual({ type: 'dtmf', digit: '#' });
    expect(parseInboundMessage('{"type":"error","description":"Invalid message"}')).toEqual({
      type: 'error',
      description: 'Invalid message',
    });
  });

  it('passes a message type it does not know as "other", by name', () => {
    expect(parseInboundMessage('{"type":"info","x":1}')).toEqual({ type: 'other', name: 'info' });
  });

  it.each([
    ['not JSON', 'hello', 'message is not JSON'],
    ['an array', '[1]', 'message is not a JSON object'],
    ['no type', '{"voicePrompt":"x"}', 'message has no type'],
    ['a setup without callSid', '{"type":"setup"}', 'setup message: callSid'],
    ['two keys at once', '{"type":"dtmf","digit":"12"}', 'dtmf message: digit must be one keypad key'],
    ['a message over 32 KB', JSON.stringify({ type: 'prompt', voicePrompt: 'x'.repeat(33_000) }), 'message larger than 32768 bytes'],
  ])('refuses %s, saying why without echoing it', (_, raw, reason) => {
    let error: unknown;
    try {
      parseInboundMessage(raw);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RelayProtocolError);
    expect((error as Error).message).toContain(reason);
  });

  it('writes text and end as Twilio reads them', () => {
    expect(textMessage('Hello.')).toEqual({ type: 'text', token: 'Hello.', last: true });
    expect(endMessage({ reason: 'done' })).toEqual({ type: 'end', handoffData: '{"reason":"done"}' });
  });
});
