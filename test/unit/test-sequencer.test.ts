import { DEFERRED_AFTER, READS_TEMPLATES, templatesLater } from '../support/test-sequencer.mjs';

describe("the test run's order", () => {
  const files = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
  const readsTemplates = (file: string) => file.startsWith('infra');

  it('runs the files that read templates after the first others, keeping both orders', () => {
    const others = files(DEFERRED_AFTER + 5, 'other');
    const infra = files(3, 'infra');
    const sorted = [infra[0]!, ...others.slice(0, 4), infra[1]!, ...others.slice(4), infra[2]!];
    expect(templatesLater(sorted, readsTemplates)).toEqual([...others.slice(0, DEFERRED_AFTER), ...infra, ...others.slice(DEFERRED_AFTER)]);
  });

  it('keeps a run of fewer files whole: the others first, then those that read templates', () => {
    expect(templatesLater(['infra0', 'other0', 'infra1'], readsTemplates)).toEqual(['other0', 'infra0', 'infra1']);
    expect(templatesLater(['infra0', 'infra1'], readsTemplates)).toEqual(['infra0', 'infra1']);
  });

  it('knows a file that reads templates by either reader, the CDK synth or the cached JSON', () => {
    expect(READS_TEMPLATES.test("  prod = synthesize('prod');")).toBe(true);
    expect(READS_TEMPLATES.test("  prod = await synthesizedTemplates('prod');")).toBe(true);
    expect(READS_TEMPLATES.test("import { synthesizedTemplates } from '../infra/template-json';")).toBe(false);
  });
});
