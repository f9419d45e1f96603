import { baseLanguage, detectLanguage, isInLanguage } from '../../../shared/lead-follow-up/language';
import { checkChannelMessages, type ChannelMessages } from '../../../shared/lead-follow-up/message-checks';

const good = (text = 'Thank you for your time, we would like to show you how the calendar works for your team.') => ({
  title: 'A next step for Trailhead',
  message: text,
  strategy: 'Name the pain point and ask for a call.',
});

const complete = (): ChannelMessages => ({ email: good(), notification: good('Your next step with Northwind is ready.'), web: good() });
const channels = ['email', 'notification', 'web'] as const;

describe('checkChannelMessages', () => {
  it('passes complete, ready-to-send copy', () => {
    expect(checkChannelMessages(complete(), channels, { language: 'en' })).toEqual([]);
  });

  it('wants every available channel', () => {
    const { web: _web, ...rest } = complete();
    expect(checkChannelMessages(rest, channels, {})).toEqual([{ code: 'missing', message: 'channel is missing', path: ['web'] }]);
  });

  it('refuses a channel that is not available', () => {
    const problems = checkChannelMessages({ ...complete(), messaging_app: good() }, channels, {});
    expect(problems).toEqual([expect.objectContaining({ code: 'unexpected', path: ['messaging_app'] })]);
  });

  it('refuses empty titles, messages and strategies', () => {
    const messages = { ...complete(), web: { title: ' ', message: '', strategy: '' } };
    expect(checkChannelMessages(messages, channels, {}).map((problem) => problem.path.join('.'))).toEqual([
      'web.title',
      'web.message',
      'web.strategy',
    ]);
  });

  it('holds each channel to its limits', () => {
    const messages: ChannelMessages = {
      email: { ...good(), title: 'T'.repeat(121) },
      messaging_app: good('word '.repeat(201)),
      notification: good('a'.repeat(241)),
      web: good('a'.repeat(3_000)),
    };
    const problems = checkChannelMessages(messages, ['email', 'messaging_app', 'notification', 'web'], {});
    expect(problems.filter((problem) => problem.code === 'too_long').map((problem) => problem.path.join('.'))).toEqual([
      'email.title',
      'messaging_app.message',
      'notification.message',
    ]);
  });

  it('accepts copy exactly at the limits', () => {
    const messages: ChannelMessages = { email: { ...good(), title: 'T'.repeat(120) }, notification: good('n'.repeat(240)), web: good() };
    expect(checkChannelMessages(messages, channels, {}).filter((problem) => problem.code === 'too_long')).toEqual([]);
  });

  it('finds placeholders in titles and messages', () => {
    const messages = { ...complete(), email: { ...good('Hi [Name], welcome to {{company}}.'), title: 'Hello {first_name}' } };
    const problems = checkChannelMessages(messages, channels, {});
    expect(problems).toEqual([
      expect.objectContaining({ code: 'placeholder', path: ['email', 'title'] }),
      expect.objectContaining({ code: 'placeholder', path: ['email', 'message'], message: expect.stringContaining('[Name]') }),
    ]);
  });

  it('refuses Markdown markup', () => {
    const messages = { ...complete(), web: good('**Big news** for your team and for you') };
    expect(checkChannelMessages(messages, channels, {})).toEqual([expect.objectContaining({ code: 'markup', path: ['web', 'message'] })]);
  });

  it("refuses copy clearly in another language than the lead's", () => {
    const spanish =
      'Gracias por su tiempo, nos gustaría mostrarle cómo el calendario puede ayudar a su equipo con las reservas de la empresa.';
    const messages = { ...complete(), email: good(spanish) };
    expect(checkChannelMessages(messages, channels, { language: 'en' })).toEqual([
      expect.objectContaining({ code: 'language', path: ['email', 'message'] }),
    ]);
    // For a Spanish lead the Spanish email passes; the English web message fails; short titles give no verdict.
    expect(checkChannelMessages(messages, channels, { language: 'es' }).map((problem) => problem.path.join('.'))).toEqual(['web.message']);
  });
});

describe('language detection', () => {
  it('normalizes tags', () => {
    expect(baseLanguage('en-US')).toBe('en');
    expect(baseLanguage('ES')).toBe('es');
    expect(baseLanguage('not a tag!')).toBeUndefined();
  });

  it('recognises clear text and gives no verdict on short text', () => {
    expect(detectLanguage('We would like to show you how the calendar works for your team and your customers.')).toBe('en');
    expect(detectLanguage('Nos gustaría mostrarle cómo el calendario funciona para su equipo y los clientes de la empresa.')).toBe('es');
    expect(detectLanguage('Bonjour Jordan')).toBeUndefined();
  });

  it('passes languages it does not know', () => {
    expect(isInLanguage('Thank you for your time and for the demo of the product.', 'ja')).toBe(true);
    expect(isInLanguage('Thank you for your time and for the demo of the product.', 'fr')).toBe(false);
  });
});

describe('copy with control or bidi characters', () => {
  it.each([
    ['a NUL', 'Hi Jordan,\u0000 welcome back.', 'U+0000'],
    ['a right-to-left override', 'Hi Jordan, \u202Eyour order is ready.', 'U+202E'],
    ['an isolate', 'Hi \u2066Jordan\u2069, welcome back.', 'U+2066, U+2069'],
    ['a left-to-right mark', 'Hi Jordan\u200E, welcome back.', 'U+200E'],
    ['an Arabic letter mark', 'Hi Jordan\u061C, welcome back.', 'U+061C'],
    ['a C1 control', 'Hi Jordan,\u0085 welcome back.', 'U+0085'],
    ['a carriage return', 'Hi Jordan,\r\nwelcome back.', 'U+000D'],
  ])('refuses %s', (_name, text, named) => {
    const problems = checkChannelMessages({ ...complete(), web: good(text) }, channels, {});
    expect(problems).toEqual([{ code: 'control_character', message: expect.stringContaining(named), path: ['web', 'message'] }]);
  });

  it('accepts newlines and tabs', () => {
    expect(checkChannelMessages({ ...complete(), email: good('Hi Jordan,\n\n\tthanks for your time.\n\nSam') }, channels, {})).toEqual([]);
  });
});

describe('copy far beyond any answer', () => {
  it('is refused for its length alone, before any pattern reads it', () => {
    const text = `Hi {{name}}, ${'x'.repeat(20_000)}`;
    expect(checkChannelMessages({ ...complete(), web: good(text) }, channels, {})).toEqual([
      { code: 'too_long', message: `is ${text.length} characters; at most 20000 allowed`, path: ['web', 'message'] },
    ]);
  });
});
