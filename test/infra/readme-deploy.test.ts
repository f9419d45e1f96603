/**
 * docs/deploying.md against the synthesized prod template: the
 * line synth prints, the concurrency it asks for, the bootstrap version,
 * the stack names, and every output and export it names (and no output it
 * leaves out).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { accountConcurrencyNeeded, ENVIRONMENTS, environmentConfig } from '../../infra/config';
import { describeTarget } from '../../infra/stages/switchboard-app';
import { QUEUES } from '../../shared/catalogue/job-types';
import { synthesize, type SynthesizedEnvironment, type TemplateJson } from './synthesize';

/** The steps of the page, up to "What is deployed". */
const PAGE = readFileSync(new URL('../../docs/deploying.md', import.meta.url), 'utf8');
const SECTION = PAGE.slice(0, PAGE.indexOf('\n## What is deployed'));

let prod: SynthesizedEnvironment;
beforeAll(() => {
  prod = synthesize('prod');
});

/** The outputs a team reads (not the `PublishOutput…` plumbing between the stacks). */
function teamOutputs(template: TemplateJson): Record<string, { Export?: { Name: unknown } }> {
  return Object.fromEntries(Object.entries(template.Outputs ?? {}).filter(([name]) => !name.startsWith('PublishOutput')));
}

/** Output names in the page's outputs table, per stack. */
function documentedOutputs(stack: 'Service' | 'Stateful'): string[] {
  return SECTION.split('\n')
    .filter((line) => line.startsWith(`| ${stack} |`))
    .flatMap((line) => [...line.split('|')[2]!.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]!));
}

describe('docs/deploying.md: deploying to AWS', () => {
  it('shows the line synth prints for prod, and the concurrency every environment needs', () => {
    expect(SECTION).toContain(`# ${describeTarget(environmentConfig('prod'))}\n`);
    expect(accountConcurrencyNeeded(ENVIRONMENTS.prod)).toBe(1480);
    expect(SECTION).toContain('so it needs 1480;');
    expect(SECTION).toContain('echo "$NEEDED"   # 1480');
    expect(SECTION).toContain(
      `staging ${accountConcurrencyNeeded(ENVIRONMENTS.staging)}; dev ${accountConcurrencyNeeded(ENVIRONMENTS.dev)}`,
    );
    const { reservedConcurrency } = environmentConfig('prod');
    const reserved = Object.values(reservedConcurrency).reduce<number>((sum, value) => sum + (value ?? 0), 0);
    const workers = QUEUES.reduce((sum, queue) => sum + (reservedConcurrency[queue.workerFunction] ?? 0), 0);
    expect(workers).toBe(60);
    expect(SECTION).toContain(`prod reserves\n${reserved} (api functions ${reserved - workers}, workers ${workers})`);
  });

  it('asks for the quota synth prints, read from its line by the sed of the page', () => {
    const command = SECTION.split('\n').find((line) => line.startsWith('NEEDED=$(npm run synth --silent -- -c env=prod 2>&1 | sed -n '));
    expect(command).toBeDefined();
    // The page's sed, run on what synth prints (the line among the CLI's other output), finds the number.
    const expression = /sed -n '([^']+)'/.exec(command!)![1]!;
    const printed = `Successfully synthesized to cdk.out\n${describeTarget(environmentConfig('prod'))}\n`;
    const read = spawnSync('sed', ['-n', expression], { input: printed, encoding: 'utf8' });
    expect(read.stdout).toBe(`${accountConcurrencyNeeded(ENVIRONMENTS.prod)}\n`);
    expect(SECTION).toContain('--quota-code L-B99A9384 --desired-value "$NEEDED"');
    expect(SECTION).not.toMatch(/--desired-value \d/);
  });

  it('bootstraps the pinned account and region, with a version the templates accept', () => {
    const { account, region } = ENVIRONMENTS.prod;
    expect(SECTION).toContain(`cdk bootstrap aws://${account}/${region}`);
    const rules = (prod.service.toJSON() as { Rules: { CheckBootstrapVersion: { Assertions: { Assert: unknown }[] } } }).Rules;
    expect(JSON.stringify(rules.CheckBootstrapVersion.Assertions[0]!.Assert)).toContain('["1","2","3","4","5"]');
    expect(SECTION).toContain('the templates need\nversion 6 or later');
  });

  it('names the two stacks as they are synthesized', () => {
    expect([prod.stage.stateful.stackName, prod.stage.service.stackName]).toEqual([
      'Switchboard-prod-Stateful',
      'Switchboard-prod-Service',
    ]);
    expect(SECTION).toContain('--stack-name Switchboard-prod-Stateful');
  });

  it.each(['Service', 'Stateful'] as const)('lists exactly the outputs of the %s stack', (stack) => {
    const template = stack === 'Service' ? prod.json.service : prod.json.stateful;
    expect(documentedOutputs(stack).sort()).toEqual(Object.keys(teamOutputs(template)).sort());
  });

  it('names the exports a producer imports, as the template exports them', () => {
    const exported = Object.values(teamOutputs(prod.json.stateful))
      .map((output) => output.Export?.Name)
      .filter((name): name is string => typeof name === 'string');
    expect(exported.sort()).toEqual([
      'Switchboard-prod-Stateful-ResearchProducerPolicyArn',
      'Switchboard-prod-Stateful-ResearchQueueUrl',
      'Switchboard-prod-Stateful-SalesProducerPolicyArn',
      'Switchboard-prod-Stateful-SalesQueueUrl',
    ]);
    for (const name of exported) {
      expect(SECTION).toContain(`exported as \`${name}\``);
      expect(SECTION).toContain(`Fn.importValue('${name}')`);
    }
  });
});
