import { App, RemovalPolicy } from 'aws-cdk-lib';
import {
  ENVIRONMENTS,
  ENVIRONMENT_NAMES,
  InvalidEnvironmentError,
  UnknownEnvironmentError,
  environmentConfig,
} from '../../infra/config';
import { QUEUES } from '../../shared/catalogue/job-types';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';

describe('environmentConfig', () => {
  it('knows exactly dev, staging and prod', () => {
    expect([...ENVIRONMENT_NAMES]).toEqual(['dev', 'staging', 'prod']);
    expect(Object.keys(ENVIRONMENTS).sort()).toEqual(['dev', 'prod', 'staging']);
  });

  it.each([undefined, '', 'production', 'Dev', 42])('rejects %p with a message naming the valid environments', (name) => {
    expect(() => environmentConfig(name, {}, {})).toThrow(UnknownEnvironmentError);
    expect(() => environmentConfig(name, {}, {})).toThrow(/-c env=NAME with NAME one of dev, staging, prod/);
  });

  it('is environment-agnostic without CDK_DEFAULT_ACCOUNT/REGION', () => {
    const config = environmentConfig('dev', {}, {});
    expect(config.account).toBeUndefined();
    expect(config.region).toBeUndefined();
  });

  it('takes account and region from the CDK CLI environment when present', () => {
    const config = environmentConfig('staging', {}, { CDK_DEFAULT_ACCOUNT: '111122223333', CDK_DEFAULT_REGION: 'eu-west-1' });
    expect(config).toMatchObject({ name: 'staging', account: '111122223333', region: 'eu-west-1' });
  });

  it('retains data and protects the table in prod only', () => {
    expect(environmentConfig('prod', {}, {})).toMatchObject({ removalPolicy: RemovalPolicy.RETAIN, tableDeletionProtection: true });
    expect(environmentConfig('dev', {}, {})).toMatchObject({ removalPolicy: RemovalPolicy.DESTROY, tableDeletionProtection: false });
  });

  it('never reserves less concurrency for a worker than its event source may use', () => {
    for (const name of ENVIRONMENT_NAMES) {
      const { reservedConcurrency } = environmentConfig(name, {}, {});
      for (const queue of QUEUES) {
        const reserved = reservedConcurrency[queue.workerFunction];
        if (reserved !== undefined) expect(reserved).toBeGreaterThanOrEqual(queue.maxConcurrency);
      }
    }
  });

  it('accepts an https public base URL override and rejects anything else', () => {
    expect(environmentConfig('dev', { publicBaseUrl: 'https://hooks.example.com' }, {}).publicBaseUrl).toBe(
      'https://hooks.example.com',
    );
    expect(() => environmentConfig('dev', { publicBaseUrl: 'http://hooks.example.com' }, {})).toThrow(InvalidEnvironmentError);
    expect(() => environmentConfig('dev', { publicBaseUrl: 'https://hooks.example.com/' }, {})).toThrow(/trailing slash/);
  });
});

describe('addSwitchboardStage', () => {
  it('fails clearly when -c env is missing or unknown', () => {
    expect(() => addSwitchboardStage(new App(), {})).toThrow(/no environment given: pass -c env=NAME/);
    expect(() => addSwitchboardStage(new App({ context: { env: 'qa' } }), {})).toThrow(/unknown environment "qa"/);
  });

  it('builds exactly one stage, named after the environment', () => {
    const app = new App({ context: { env: 'staging', 'aws:cdk:bundling-stacks': [] } });
    const stage = addSwitchboardStage(app, {});
    expect(app.node.children.map((child) => child.node.id)).toEqual(['Switchboard-staging']);
    expect(stage.stateful.stackName).toBe('Switchboard-staging-Stateful');
    expect(stage.service.stackName).toBe('Switchboard-staging-Service');
  });
});
