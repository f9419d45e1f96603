import { normalizeUtterance, readIntent } from '../../../shared/voice-assistant/caller-intent';

describe('normalizeUtterance', () => {
  it('reads ASR-like text: lower case, contractions spelled out, fillers and markup gone', () => {
    expect(normalizeUtterance('Um, WHAT’S the… uh <b>budget</b>?')).toBe('what is the budget?');
    expect(normalizeUtterance('whats the budget')).toBe('what is the budget');
    expect(normalizeUtterance('I dont know, you know')).toBe('i do not know');
    expect(normalizeUtterance('abandoned-booking flow, 2.5 percent')).toBe('abandoned booking flow 2.5 percent');
  });

  it('keeps at most 600 characters and no control characters', () => {
    const read = normalizeUtterance(`what\u0000\u202Eis ${'very '.repeat(500)}`);
    expect(read.length).toBeLessThanOrEqual(600);
    expect(read.startsWith('whatis very')).toBe(true);
  });
});

describe('readIntent', () => {
  it.each([
    ['Goodbye!', 'goodbye'],
    ["That's all, thanks", 'goodbye'],
    ['thats all thank you', 'goodbye'],
    ['Sorry, this is not a good time.', 'not_now'],
    ['im busy call me later', 'not_now'],
    ['Can you repeat that?', 'repeat'],
    ['sorry what', 'repeat'],
    ['i didnt catch that', 'repeat'],
    ['Can you hear me?', 'hear_check'],
    ['are you still there', 'hear_check'],
    ['Hold on a second.', 'hold'],
    ['hello', 'greeting'],
    ['Good morning!', 'greeting'],
    ['I don’t know.', 'dont_know'],
    ['um not sure', 'dont_know'],
    ["What's next?", 'next'],
    ['lets move on', 'next'],
    ['next', 'next'],
    ['Yes, this is a good time.', 'yes'],
    ['uh yeah sure go ahead', 'yes'],
    ['Nope.', 'no'],
    ['We decided to move 10 percent of the events budget to paid search. Maya will send the plan by Friday.', 'statement'],
    ['What we decided is to cut the budget', 'statement'],
    ['', 'unclear'],
    ['?!…', 'unclear'],
    ['\u0007\u0000', 'unclear'],
  ])('reads %p as %p', (said, kind) => {
    expect(readIntent(said).kind).toBe(kind);
  });

  it.each([
    ["What's on the agenda?", 'agenda'],
    ['who is this', 'identity'],
    ['are you a robot', 'bot'],
    ['why are you calling', 'purpose'],
    ['who else is on the call', 'participants'],
    ['whats the budget', 'budget'],
    ['yes and what is the budget', 'budget'],
    ['so um what is the ah budget looking like', 'budget'],
    ['how many tasks are open', 'tasks'],
    ['How are the campaigns performing?', 'campaigns'],
    ['tell me about the requirements', 'requirements'],
    ['what content do we have', 'content'],
    ['Any news on the lead?', 'lead'],
  ])('reads %p as a question about %p', (said, topic) => {
    expect(readIntent(said)).toMatchObject({ kind: 'question', topics: expect.arrayContaining([topic]) });
  });

  it('tells a question from a statement that names the same topic', () => {
    expect(readIntent('We moved the budget to social.').kind).toBe('statement');
    expect(readIntent('We moved the budget to social. What is the budget now?')).toMatchObject({ kind: 'question', strong: true });
    expect(readIntent('is the weather nice')).toMatchObject({ kind: 'question', strong: false, topics: [] });
  });

  it('reads a long answer that opens with yes or no as an answer that says more', () => {
    expect(readIntent('No, we decided to keep the spend on social media as it is for now')).toEqual({ kind: 'no', short: false });
    expect(readIntent('no')).toEqual({ kind: 'no', short: true });
  });
});
