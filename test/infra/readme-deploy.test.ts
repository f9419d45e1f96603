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
function documentedOutputs(stack: 'Service' | 'Stateful' | 'Edge'): string[] {
  return SECTION.split('\n')
    .filter((line) => line.startsWith(`| ${stack} |`))
    .flatMap((line) => [...line.split('|')[2]!.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]!));
}

describe('docs/deploying.md: deploying to AWS', () => {
  it('shows the line synth prints for prod, and the concurrency every environment needs', () => {
    // The page's example sets every placeholder with its flag, as a team without its values in infra/config.ts does.
    const example = environmentConfig('prod', {
      account: '444455556666',
      alarmEmails: ['oncall@acme.com'],
      twilioFromNumber: '+14155552671',
      publicDomain: 'switchboard.acme.com',
      publicCertificateArn: 'arn:aws:acm:us-east-1:444455556666:certificate/3f1c2b7a-9d4e-4c1a-8b2f-6e5d4c3b2a19',
    });
    expect(SECTION).toContain(
      'npm run synth -- -c env=prod -c account=444455556666 -c alarmEmail=oncall@acme.com -c twilioFromNumber=+14155552671 \\\n' +
        '  -c publicDomain=switchboard.acme.com -c publicCertificateArn=arn:aws:acm:us-east-1:444455556666:certificate/…\n',
    );
    expect(SECTION).toContain(`# ${describeTarget(example)}\n`);
    expect(accountConcurrencyNeeded(ENVIRONMENTS.prod)).toBe(1977);
    expect(SECTION).toContain('so it needs 1977;');
    expect(SECTION).toContain('echo "$NEEDED"   # 1977');
    expect(SECTION).toContain(
      `staging ${accountConcurrencyNeeded(ENVIRONMENTS.staging)}; dev ${accountConcurrencyNeeded(ENVIRONMENTS.dev)}`,
    );
    const { reservedConcurrency } = environmentConfig('prod', { allowPlaceholders: true });
    const reserved = Object.values(reservedConcurrency).reduce<number>((sum, value) => sum + (value ?? 0), 0);
    const workers = QUEUES.reduce((sum, queue) => sum + (reservedConcurrency[queue.workerFunction] ?? 0), 0);
    expect(workers).toBe(64);
    expect(SECTION).toContain(`prod reserves\n${reserved} (api functions ${reserved - workers}, workers ${workers})`);
  });

  it('names the flag of every placeholder a prod synth refuses', () => {
    let refusal = '';
    try {
      environmentConfig('prod');
    } catch (error) {
      refusal = (error as Error).message;
    }
    const flags = [...refusal.matchAll(/(-c [A-Za-z]+)=/g)].map((match) => match[1]!);
    expect(flags).toEqual([
      '-c account',
      '-c alarmEmail',
      '-c twilioFromNumber',
      '-c publicDomain',
      '-c publicCertificateArn',
      '-c allowPlaceholders',
    ]);
    for (const flag of flags) expect(SECTION.replace(/\n/g, ' ')).toContain(`\`${flag}=`);
  });

  it('asks for the quota synth prints, read from its line by the sed of the page', () => {
    const command = SECTION.split('\n').find((line) =>
      line.startsWith('NEEDED=$(npm run synth --silent -- -c env=prod -c allowPlaceholders=true 2>&1 | sed -n '),
    );
    expect(command).toBeDefined();
    // The page's sed, run on what synth prints (the line among the CLI's other output), finds the number.
    const expression = /sed -n '([^']+)'/.exec(command!)![1]!;
    const printed = `Successfully synthesized to cdk.out\n${describeTarget(environmentConfig('prod', { allowPlaceholders: true }))}\n`;
    const read = spawnSync('sed', ['-n', expression], { input: printed, encoding: 'utf8' });
    expect(read.stdout).toBe(`${accountConcurrencyNeeded(ENVIRONMENTS.prod)}\n`);
    expect(SECTION).toContain('--quota-code L-B99A9384 --desired-value "$NEEDED"');
    expect(SECTION).not.toMatch(/--desired-value \d/);
  });

  it('bootstraps the pinned account and region, and us-east-1 for the edge stack, with a version the templates accept', () => {
    const { account, region } = ENVIRONMENTS.prod;
    expect(SECTION).toContain(`cdk bootstrap aws://${account}/${region} aws://${account}/us-east-1\n`);
    const rules = (prod.service.toJSON() as { Rules: { CheckBootstrapVersion: { Assertions: { Assert: unknown }[] } } }).Rules;
    expect(JSON.stringify(rules.CheckBootstrapVersion.Assertions[0]!.Assert)).toContain('["1","2","3","4","5"]');
    expect(SECTION).toContain('the templates need\nversion 6 or later');
  });

  it('names the stacks as they are synthesized', () => {
    expect([prod.stage.stateful.stackName, prod.stage.service.stackName, prod.stage.edge?.stackName]).toEqual([
      'Switchboard-prod-Stateful',
      'Switchboard-prod-Service',
      'Switchboard-prod-Edge',
    ]);
    expect(SECTION).toContain('`Switchboard-NAME-Edge` in us-east-1');
    expect(SECTION).toContain('small `Switchboard-prod-Edge` stack');
    expect(SECTION).toContain('--stack-name Switchboard-prod-Stateful');
  });

  it.each(['Service', 'Stateful', 'Edge'] as const)('lists exactly the outputs of the %s stack', (stack) => {
    const template = { Service: prod.json.service, Stateful: prod.json.stateful, Edge: prod.json.edge! }[stack];
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
