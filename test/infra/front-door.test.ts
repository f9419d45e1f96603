/**
 * What a first deploy in a fresh account needs, as synthesized: API
 * Gateway's account CloudWatch role before the relay's logged stage, and
 * the front door (CloudFront at the team's domain, `/relay*` to the
 * WebSocket API, the rest to the HTTP API, a WAF rate rule on the relay)
 * that PUBLIC_BASE_URL points at.
 */
import { Stack } from 'aws-cdk-lib';
import { ENVIRONMENTS } from '../../infra/config';
import { RELAY_CONNECTS_PER_ADDRESS } from '../../infra/constructs/relay-web-acl';
import { FUNCTIONS } from '../../shared/catalogue/functions';
import { logicalId, synthesize, type SynthesizedEnvironment, type TemplateJson } from './synthesize';

/** Managed policy ids of CloudFront (the same in every account). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** Prod as a team deploys it: every placeholder set with its flag, the account's API Gateway role left alone. */
const TEAM = {
  account: '444455556666',
  alarmEmail: 'oncall@acme-corp.io',
  twilioFromNumber: '+442071838750',
  publicDomain: 'switchboard.acme-corp.io',
  publicCertificateArn: 'arn:aws:acm:us-east-1:444455556666:certificate/3f1c2b7a-9d4e-4c1a-8b2f-6e5d4c3b2a19',
  apiGatewayAccountRole: 'existing',
  allowPlaceholders: false,
};

let prod: SynthesizedEnvironment;
let team: SynthesizedEnvironment;
let dev: SynthesizedEnvironment;
beforeAll(() => {
  prod = synthesize('prod');
  team = synthesize('prod', TEAM);
  dev = synthesize('dev');
});

function resourcesOf(template: TemplateJson, type: string) {
  return Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
}

/** The stacks the CLI deploys before `stack` (dependencies between stacks are settled when the stage synthesizes). */
function deployedAfter(env: SynthesizedEnvironment, stack: Stack): string[] {
  return env.stage
    .synth()
    .getStackArtifact(stack.artifactId)
    .dependencies.map((dependency) => dependency.id);
}

function publicBaseUrls(env: SynthesizedEnvironment): unknown[] {
  return resourcesOf(env.json.service, 'AWS::Lambda::Function').map(
    ([, fn]) => (fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables.PUBLIC_BASE_URL,
  );
}

describe("API Gateway's account CloudWatch role", () => {
  it('is made in the stateful stack: a role for API Gateway with its AWS policy, set on the account, retained', () => {
    const accounts = resourcesOf(prod.json.stateful, 'AWS::ApiGateway::Account');
    expect(accounts).toHaveLength(1);
    const [, account] = accounts[0]!;
    const roleId = logicalId(prod.stage.stateful.apiGatewayAccount!.role);
    expect(account.Properties).toEqual({ CloudWatchRoleArn: { 'Fn::GetAtt': [roleId, 'Arn'] } });
    const role = prod.json.stateful.Resources[roleId]!;
    expect(role.DeletionPolicy).toBe('Retain');
    expect(role.Properties?.AssumeRolePolicyDocument).toMatchObject({
      Statement: [{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' } }],
    });
    expect(JSON.stringify(role.Properties?.ManagedPolicyArns)).toContain(
      ':iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
    );
  });

  it('is set before the relay stage is created: the stage depends on it, so the service stack waits for the stateful one', () => {
    const { stateful, service } = prod.stage;
    expect(service.relay.stage.node.dependencies).toContain(stateful.apiGatewayAccount!.account);
    expect(deployedAfter(prod, service)).toContain(stateful.artifactId);
  });

  it('is left alone with -c apiGatewayAccountRole=existing', () => {
    expect(team.stage.stateful.apiGatewayAccount).toBeUndefined();
    expect(resourcesOf(team.json.stateful, 'AWS::ApiGateway::Account')).toEqual([]);
    expect(resourcesOf(team.json.stateful, 'AWS::IAM::Role')).toEqual([]);
  });
});

describe('the front door', () => {
  it('is one distribution at the team domain, with its us-east-1 certificate, over TLS 1.2', () => {
    const distributions = resourcesOf(team.json.service, 'AWS::CloudFront::Distribution');
    expect(distributions).toHaveLength(1);
    const config = distributions[0]![1].Properties?.DistributionConfig as Record<string, unknown>;
    expect(config.Aliases).toEqual([TEAM.publicDomain]);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: TEAM.publicCertificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it('sends /relay* to the WebSocket API (no origin path: the stage is named relay) and the rest to the HTTP API, uncached', () => {
    const [[, distribution]] = resourcesOf(prod.json.service, 'AWS::CloudFront::Distribution') as [
      [string, TemplateJson['Resources'][string]],
    ];
    const config = distribution.Properties?.DistributionConfig as {
      Origins: { Id: string; DomainName: unknown; OriginPath?: string; CustomOriginConfig: Record<string, unknown> }[];
      DefaultCacheBehavior: Record<string, unknown>;
      CacheBehaviors: Record<string, unknown>[];
    };
    const executeApi = (api: string) => ({ 'Fn::Join': ['', [{ Ref: api }, '.execute-api.eu-west-1.', { Ref: 'AWS::URLSuffix' }]] });
    const { service } = prod.stage;
    expect(config.Origins.map(({ Id, DomainName, OriginPath }) => ({ Id, DomainName, OriginPath }))).toEqual([
      { Id: 'HttpApi', DomainName: executeApi(logicalId(service.api.httpApi)), OriginPath: undefined },
      { Id: 'RelaySocket', DomainName: executeApi(logicalId(service.relay.webSocketApi)), OriginPath: undefined },
    ]);
    for (const origin of config.Origins) expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    // API Gateway's integration timeout is 30 s: CloudFront must not give up first.
    expect(config.Origins[0]!.CustomOriginConfig.OriginReadTimeout).toBe(35);
    const passThrough = {
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
    };
    expect(config.DefaultCacheBehavior).toMatchObject({ ...passThrough, TargetOriginId: 'HttpApi' });
    expect(config.CacheBehaviors).toEqual([
      expect.objectContaining({ ...passThrough, PathPattern: '/relay*', TargetOriginId: 'RelaySocket' }),
    ]);
  });

  it("passes the relay URL's query (each call's one-time token) through to the WebSocket API, and limits /relay by path alone", () => {
    const [[, distribution]] = resourcesOf(prod.json.service, 'AWS::CloudFront::Distribution') as [
      [string, TemplateJson['Resources'][string]],
    ];
    const { CacheBehaviors } = distribution.Properties?.DistributionConfig as { CacheBehaviors: Record<string, unknown>[] };
    const relay = CacheBehaviors.find((behavior) => behavior.PathPattern === '/relay*')!;
    // AllViewerExceptHostHeader forwards every query string (and header but Host); caching off, so no cache key drops it.
    expect(relay).toMatchObject({ OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER, CachePolicyId: CACHING_DISABLED });
    expect(relay).not.toHaveProperty('ForwardedValues');
    // The WAF rule matches the path, without the query: `/relay?token=…` is counted like `/relay`.
    const [[, acl]] = resourcesOf(prod.json.edge!, 'AWS::WAFv2::WebACL') as [[string, TemplateJson['Resources'][string]]];
    const [rule] = acl.Properties?.Rules as { Statement: { RateBasedStatement: { ScopeDownStatement: unknown } } }[];
    expect(rule!.Statement.RateBasedStatement.ScopeDownStatement).toMatchObject({
      ByteMatchStatement: { FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH', SearchString: '/relay' },
    });
  });

  it('is guarded by a CLOUDFRONT WebACL made in a us-east-1 stack, read across regions', () => {
    expect(prod.stage.edge!.stackName).toBe('Switchboard-prod-Edge');
    expect(prod.stage.edge!.environment).toBe(`aws://${ENVIRONMENTS.prod.account}/us-east-1`);
    expect(Stack.of(prod.stage.service).region).toBe('eu-west-1');
    const acls = resourcesOf(prod.json.edge!, 'AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    const [aclId] = acls[0]!;
    const [[outputName]] = Object.entries(prod.json.edge!.Outputs ?? {}).filter(
      ([, output]) => JSON.stringify(output.Value) === JSON.stringify({ 'Fn::GetAtt': [aclId, 'Arn'] }),
    ) as [[string, unknown]];
    const [[, distribution]] = resourcesOf(prod.json.service, 'AWS::CloudFront::Distribution') as [
      [string, TemplateJson['Resources'][string]],
    ];
    expect((distribution.Properties?.DistributionConfig as { WebACLId: unknown }).WebACLId).toEqual({
      'Fn::GetStackOutput': { StackName: 'Switchboard-prod-Edge', Region: 'us-east-1', OutputName: outputName },
    });
    expect(deployedAfter(prod, prod.stage.service)).toContain(prod.stage.edge!.artifactId);
  });

  it('rate-limits socket connects per client address on /relay only, and lets everything else through', () => {
    const [[, acl]] = resourcesOf(prod.json.edge!, 'AWS::WAFv2::WebACL') as [[string, TemplateJson['Resources'][string]]];
    expect(acl.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(acl.Properties?.Rules).toEqual([
      expect.objectContaining({
        Name: 'RelayConnectsPerAddress',
        Action: { Block: {} },
        Statement: {
          RateBasedStatement: {
            Limit: RELAY_CONNECTS_PER_ADDRESS,
            EvaluationWindowSec: 300,
            AggregateKeyType: 'IP',
            ScopeDownStatement: {
              ByteMatchStatement: {
                FieldToMatch: { UriPath: {} },
                PositionalConstraint: 'STARTS_WITH',
                SearchString: '/relay',
                TextTransformations: [{ Priority: 0, Type: 'NONE' }],
              },
            },
          },
        },
      }),
    ]);
    expect(RELAY_CONNECTS_PER_ADDRESS).toBe(100);
  });

  it('is what PUBLIC_BASE_URL names, on every function, and what the PublicHostTarget output points a CNAME at', () => {
    expect(publicBaseUrls(team)).toEqual(FUNCTIONS.map(() => `https://${TEAM.publicDomain}`));
    expect(publicBaseUrls(prod)).toEqual(FUNCTIONS.map(() => 'https://switchboard.example.com'));
    const distributionId = logicalId(team.stage.service.frontDoor!.distribution);
    expect(team.json.service.Outputs?.PublicHostTarget?.Value).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
    expect(team.json.service.Outputs?.PublicBaseUrl?.Value).toBe(`https://${TEAM.publicDomain}`);
  });

  it('has no unacknowledged annotation in the edge stack', () => {
    const assembly = prod.stage.synth();
    const messages = assembly
      .getStackArtifact(prod.stage.edge!.artifactId)
      .messages.filter((message) => message.level === 'error' || message.level === 'warning');
    expect(messages).toEqual([]);
  });

  it('is absent where there is no public host (dev): PUBLIC_BASE_URL is the HTTP API, and no edge stack', () => {
    expect(dev.stage.edge).toBeUndefined();
    expect(dev.json.edge).toBeUndefined();
    expect(resourcesOf(dev.json.service, 'AWS::CloudFront::Distribution')).toEqual([]);
    const api = logicalId(dev.stage.service.api.httpApi);
    expect(publicBaseUrls(dev)).toEqual(FUNCTIONS.map(() => ({ 'Fn::GetAtt': [api, 'ApiEndpoint'] })));
  });
});
