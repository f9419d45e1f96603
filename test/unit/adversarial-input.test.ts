import { presentedKey } from '../../shared/access/authenticate';
import { preferredWaitMs } from '../../shared/commands/wait';
import { dayOf } from '../../shared/deep-research/dates';
import { buildSearchQuery } from '../../shared/deep-research/query';
import { normalizeUrl, plainText, shapeResults } from '../../shared/deep-research/results';
import { parseDeepResearchRequest } from '../../shared/deep-research/schema';
import { allowedContactsOf, withoutForeignContacts } from '../../shared/lead-follow-up/allowed-contacts';
import { checkLeadFollowUp } from '../../shared/lead-follow-up/checks';
import { writingContext, type WritingContext } from '../../shared/lead-follow-up/context';
import { copyRulesFor } from '../../shared/lead-follow-up/copy-rules';
import { followUpIntervalMs, parseFollowUpInterval } from '../../shared/lead-follow-up/interval';
import { baseLanguage, detectLanguage, isInLanguage } from '../../shared/lead-follow-up/language';
import { copyProblems } from '../../shared/lead-follow-up/message-checks';
import { offlineChannelMessages, offlineSequence } from '../../shared/lead-follow-up/offline-writer';
import { findPlaceholders, sanitizeValue } from '../../shared/lead-follow-up/placeholders';
import { isValidPhoneNumber, parseLeadFollowUpRequest } from '../../shared/lead-follow-up/schema';
import { buildSequence, sequenceLength } from '../../shared/lead-follow-up/sequence';
import { findContacts } from '../../shared/platform/contacts';
import { redact } from '../../shared/platform/logger';
import { cleanText, unsafeCharactersIn } from '../../shared/platform/text';
import { DEMO, demoSite, inMemorySites } from './lead-follow-up/fixtures';

/**
 * Every validator and text check that sees caller or stored text, fed
 * 256 KiB of input built to make a backtracking pattern go quadratic (or
 * worse). A linear pass over 256 KiB takes a few milliseconds (about
 * 20 ms for the language check, which splits the text into words, more on a
 * loaded CI machine); a super-linear one takes seconds to hours. The bound
 * is a correctness guard, not a benchmark, so it is generous.
 */
const SIZE = 256 * 1024;
const LIMIT_MS = 150;

const fill = (unit: string, suffix = '') => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE) + suffix;

const ADVERSARIAL: Readonly<Record<string, string>> = {
  letters: fill('a'),
  'letters, then a space and a symbol': fill('a', ' !'),
  'digit-space pairs': fill('1 '),
  'space-dash pairs': fill(' -'),
  'a digit, spaces, then a word and a symbol': `1${fill(' ')}x!`,
  'a digit, spaces, a dash, spaces': `1${fill(' ')}-${fill(' ')}!`,
  'every, repeated': fill('every '),
  'every, then spaces': `every${fill(' ')}!`,
  'ISO week, repeated': fill('p1w'),
  'P, then digits': `p${fill('1')}x`,
  'digits, then a symbol': fill('1', 'x!'),
  'digit-dot pairs': fill('1.', 'a'),
  'digit-dash pairs': fill('1-', 'x'),
  'letter-dash pairs': fill('a-', '!'),
  zeros: fill('0'),
  'double braces': fill('{{'),
  'dollar braces': fill('${'),
  'open square brackets': fill('['),
  'open parentheses': fill('('),
  'an angle bracket, then spaces': `<${fill(' ')}`,
  'angle bracket, space, slash': fill('< /'),
  'percent-parenthesis pairs': fill('%('),
  'capital Xs, then a letter': fill('X', 'a'),
  'underscores, then a letter': fill('_', 'x'),
  'stars, then letters': `**${fill('a')}`,
  'a newline, spaces, then a hash': `\n${fill(' ')}#`,
  'INSERT, then spaces': `INSERT${fill(' ')}`,
  'dots, then a letter': fill('.', 'x'),
  'letter-at pairs': fill('a@'),
  'letter-dot pairs': fill('a.', 'c'),
  'labels of a domain': fill('ab-c.', 'x1'),
  schemes: fill('http://'),
  'www, repeated': fill('www.'),
  'a link with a long path': `https://evil.example/${fill('a/')}`,
  'plus-parenthesis-digit': fill('+(1'),
  'digits with separators, no end': fill('1 (2) 3-4.'),
  'Bearer, then spaces': `Bearer${fill(' ')}x y`,
  'Bearer, repeated': fill('Bearer '),
  'sk-, repeated': fill('sk-'),
  'key parameters': fill('?key='),
  'wait, then spaces': ` wait${fill(' ')}=`,
  'wait parameters': fill(' wait= '),
  'language tag parts': `en${fill('-a')}!`,
  'bidi overrides': fill('\u202E'),
  NULs: fill('\u0000'),
  'carriage returns': fill('\r'),
};

/** How long a call took: wall-clock time, and the CPU time the process spent on it (which a busy machine's stalls do not inflate). */
function timed(run: () => unknown): { wallMs: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  try {
    run();
  } catch {
    // A refusal is a fine answer; only the time it took matters here.
  }
  const wallMs = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (user + system) / 1000 };
}

/** Attempts per input: a busy machine may stall one call, a super-linear pattern is slow every time. */
const ATTEMPTS = 3;

/**
 * The inputs on which `run` was slow on every attempt: over the limit in
 * wall-clock time, and also in CPU time (when other processes hold the
 * CPU, a linear call can wait longer than the limit, but not work longer).
 */
function slowInputs(run: (input: string) => unknown): string[] {
  const slow = (input: string) => {
    const { wallMs, cpuMs } = timed(() => run(input));
    return wallMs >= LIMIT_MS && cpuMs >= LIMIT_MS;
  };
  return Object.entries(ADVERSARIAL)
    .filter(([, input]) => Array.from({ length: ATTEMPTS }).every(() => slow(input)))
    .map(([name]) => name);
}

const ids = { siteId: DEMO.siteId, leadId: DEMO.leadId };
const interaction = { date: '2026-11-18', type: 'call', summary: 'Discussed pricing.' };

/** Each string field of the request, set to one value. */
const REQUEST_FIELDS: Readonly<Record<string, (value: string) => Record<string, unknown>>> = {
  siteId: (value) => ({ ...ids, siteId: value }),
  leadId: (value) => ({ ...ids, lead_id: value, leadId: undefined }),
  userId: (value) => ({ ...ids, userId: value }),
  agentId: (value) => ({ ...ids, agent_id: value }),
  visitorId: (value) => ({ ...ids, visitorId: value }),
  followUpType: (value) => ({ ...ids, followUpType: value }),
  leadStage: (value) => ({ ...ids, lead_stage: value }),
  followUpInterval: (value) => ({ ...ids, followUpInterval: value }),
  phone_number: (value) => ({ ...ids, phone_number: value }),
  output: (value) => ({ ...ids, output: value }),
  'previousInteractions.date': (value) => ({ ...ids, previousInteractions: [{ ...interaction, date: value }] }),
  'previousInteractions.type': (value) => ({ ...ids, previousInteractions: [{ ...interaction, type: value }] }),
  'previousInteractions.summary': (value) => ({ ...ids, previousInteractions: [{ ...interaction, summary: value }] }),
  'previousInteractions.content': (value) => ({ ...ids, previous_interactions: [{ date: '2026-11-18', type: 'call', content: value }] }),
  'leadData.name': (value) => ({ ...ids, leadData: { name: value } }),
  'leadData.company': (value) => ({ ...ids, leadData: { company: value } }),
  'leadData.position': (value) => ({ ...ids, leadData: { position: value } }),
  'leadData.email': (value) => ({ ...ids, leadData: { email: value } }),
  'leadData.phone': (value) => ({ ...ids, leadData: { phone: value } }),
  'leadData.pain_points': (value) => ({ ...ids, leadData: { pain_points: [value] } }),
  'leadData.pain_points (one string)': (value) => ({ ...ids, lead_data: { pain_points: value } }),
  'leadData.budget_range': (value) => ({ ...ids, leadData: { budget_range: value } }),
  productInterest: (value) => ({ ...ids, product_interest: [value] }),
};

/** Each string a deep research request carries, set to one value. */
const RESEARCH_FIELDS: Readonly<Record<string, (value: string) => Record<string, unknown>>> = {
  operation_type: (value) => ({ operation_type: value }),
  query: (value) => ({ operation_type: 'custom_search', query: value }),
  date_from: (value) => ({ operation_type: 'llm_news', date_from: value }),
  date_to: (value) => ({ operation_type: 'llm_news', date_to: value }),
  sources: (value) => ({ operation_type: 'llm_news', sources: [value] }),
  keywords: (value) => ({ operation_type: 'llm_news', keywords: [value] }),
  analysis_depth: (value) => ({ operation_type: 'llm_news', analysis_depth: value }),
  'an unknown field': (value) => ({ operation_type: 'llm_news', [value]: 1 }),
};

describe('adversarial input: every validator and check is linear', () => {
  it('builds 256 KiB inputs', () => {
    for (const input of Object.values(ADVERSARIAL)) expect(input.length).toBeGreaterThanOrEqual(SIZE);
  });

  describe('parseLeadFollowUpRequest', () => {
    it.each(Object.keys(REQUEST_FIELDS))('%s', (field) => {
      expect(slowInputs((input) => parseLeadFollowUpRequest(REQUEST_FIELDS[field]!(input), 'channel_messages'))).toEqual([]);
    });

    it('refuses each over-long field (and so never reads it further)', () => {
      for (const field of Object.keys(REQUEST_FIELDS)) {
        expect(() => parseLeadFollowUpRequest(REQUEST_FIELDS[field]!(ADVERSARIAL['digit-space pairs']!), 'channel_messages')).toThrow();
      }
    });
  });

  describe('parseDeepResearchRequest', () => {
    it.each(Object.keys(RESEARCH_FIELDS))('%s', (field) => {
      expect(slowInputs((input) => parseDeepResearchRequest(RESEARCH_FIELDS[field]!(input)))).toEqual([]);
    });

    it('refuses each over-long field', () => {
      for (const field of Object.keys(RESEARCH_FIELDS)) {
        expect(() => parseDeepResearchRequest(RESEARCH_FIELDS[field]!(ADVERSARIAL['letter-dot pairs']!))).toThrow();
      }
    });
  });

  describe('deep research results (provider text)', () => {
    it.each<[string, (input: string) => unknown]>([
      ['normalizeUrl', normalizeUrl],
      ['plainText', (input) => plainText(input, 1_000)],
      ['dayOf', dayOf],
      [
        'shapeResults',
        (input) =>
          shapeResults([{ title: input, url: `https://a.example/${input}`, snippet: input, publishedDate: input }], { maxResults: 1 }),
      ],
      [
        'buildSearchQuery (keywords against the query)',
        (input) =>
          buildSearchQuery({
            operation_type: 'custom_search',
            query: input.slice(0, 500),
            keywords: [input.slice(0, 100)],
            max_results: 1,
            include_content_analysis: false,
            analysis_depth: 'basic',
          }),
      ],
    ])('%s', (_name, run) => {
      expect(slowInputs(run)).toEqual([]);
    });
  });

  describe('lead follow-up text', () => {
    it.each<[string, (input: string) => unknown]>([
      ['parseFollowUpInterval', parseFollowUpInterval],
      ['followUpIntervalMs', followUpIntervalMs],
      ['isValidPhoneNumber', isValidPhoneNumber],
      ['findPlaceholders', findPlaceholders],
      ['sanitizeValue', sanitizeValue],
      ['baseLanguage', baseLanguage],
      ['detectLanguage', detectLanguage],
      ['isInLanguage', (input) => isInLanguage(input, 'en')],
      ['sequenceLength', sequenceLength],
    ])('%s', (_name, run) => {
      expect(slowInputs(run)).toEqual([]);
    });
  });

  describe('output checks on 256 KiB of copy', () => {
    let context: WritingContext;
    beforeAll(async () => {
      const request = parseLeadFollowUpRequest(ids, 'channel_messages');
      context = writingContext(await checkLeadFollowUp(inMemorySites([demoSite()]), request), request);
    });

    it('copyProblems with every rule (placeholders, markup, language, control characters, contacts)', () => {
      expect(slowInputs((input) => copyProblems(input, ['email', 'message'], copyRulesFor(context, 'openai')))).toEqual([]);
    });

    it('findContacts and withoutForeignContacts', () => {
      expect(slowInputs(findContacts)).toEqual([]);
      expect(slowInputs((input) => withoutForeignContacts(input, context.allowed_contacts))).toEqual([]);
    });

    it('buildSequence (template names)', () => {
      const written = (input: string) => [{ subject: 'Hi', content: 'Hello.', next_steps: 'Wait.', template: input }];
      const sequence = (input: string) =>
        buildSequence({
          commandId: DEMO.leadId,
          siteId: DEMO.siteId,
          leadId: DEMO.leadId,
          userId: null,
          leadStage: null,
          startMs: 0,
          intervalMs: 1,
          types: ['email'],
          written: written(input),
        });
      expect(slowInputs(sequence)).toEqual([]);
    });
  });

  describe('stored text', () => {
    it('allowedContactsOf reads a stored site and lead holding adversarial text', () => {
      const { leads, ...site } = demoSite();
      const lead = leads![0]!;
      expect(slowInputs((input) => allowedContactsOf({ site: { ...site, url: input }, lead }))).toEqual([]);
      expect(slowInputs((input) => allowedContactsOf({ site, lead: { ...lead, company: input } }))).toEqual([]);
      expect(
        slowInputs((input) =>
          allowedContactsOf({ site, lead: { ...lead, interactions: [{ date: '2026-11-18', type: 'call', summary: input }] } }),
        ),
      ).toEqual([]);
    });

    it('the offline writer writes from a context full of adversarial text', async () => {
      const request = parseLeadFollowUpRequest(ids, 'channel_messages');
      const base = writingContext(await checkLeadFollowUp(inMemorySites([demoSite()]), request), request);
      const context = (input: string): WritingContext => ({
        ...base,
        agent: { name: input, instructions: input },
        lead: { ...base.lead, name: input, company: input, pain_points: [input, input], budget_range: input },
        interactions: [{ date: input, type: input, summary: input }],
        productInterest: [input],
        preferences: { contact_time: input },
      });
      expect(slowInputs((input) => offlineChannelMessages(context(input)))).toEqual([]);
      expect(slowInputs((input) => offlineSequence(context(input), ['email', 'call', 'meeting']))).toEqual([]);
    });
  });

  describe('platform', () => {
    it.each<[string, (input: string) => unknown]>([
      ['cleanText', cleanText],
      ['unsafeCharactersIn', unsafeCharactersIn],
      ['redact', redact],
      ['presentedKey (authorization)', (input) => presentedKey({ authorization: input })],
      ['presentedKey (x-api-key)', (input) => presentedKey({ 'x-api-key': input })],
      ['preferredWaitMs', (input) => preferredWaitMs(input, 25)],
    ])('%s', (_name, run) => {
      expect(slowInputs(run)).toEqual([]);
    });
  });
});
