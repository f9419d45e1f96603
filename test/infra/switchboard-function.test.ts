import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ServiceTable } from '../../infra/constructs/service-table';
import { lazyChunksCommand, nodejsFunctionEntry, REPOSITORY_ROOT, SwitchboardFunction } from '../../infra/constructs/switchboard-function';
import { functionById, type FunctionDefinition } from '../../shared/catalogue/functions';
import type { TableGrant } from '../../shared/catalogue/table';
import { PAGE_PARSE_WORKER } from '../../shared/providers/web/parse-worker-bundle';
import { testApp } from './test-app';
import { tempDir } from '../support/temp-dir';

const definition = (overrides: Partial<FunctionDefinition['access']>): FunctionDefinition => ({
  id: 'getCommandApi',
  kind: 'api',
  entry: 'functions/api/does-not-exist.ts',
  description: 'test function',
  timeoutSeconds: 5,
  memoryMb: 128,
  access: { table: [{ actions: ['GetItem'], keyPrefixes: ['APIKEY#'] }], sendsTo: [], sendsToDeadLetterOf: [], secrets: [], ...overrides },
});

/** The directory of the function's code asset in the synthesized assembly. */
function assetOf(scope: Stack, fn: SwitchboardFunction, assemblyDirectory: string): string {
  const properties = Template.fromStack(scope).toJSON().Resources[
    scope.resolve((fn.function.node.defaultChild as unknown as { logicalId: string }).logicalId)
  ].Properties as { Code: { S3Key: string } };
  return join(assemblyDirectory, `asset.${properties.Code.S3Key.replace(/\.zip$/, '')}`);
}

function stack(bundling: boolean): Stack {
  const app = testApp({ context: bundling ? {} : { 'aws:cdk:bundling-stacks': [] } });
  return new Stack(app, 'Test');
}

describe('SwitchboardFunction', () => {
  const statementsOf = (scope: Stack) =>
    Object.values(Template.fromStack(scope).findResources('AWS::IAM::Policy')).flatMap(
      (policy) => (policy as { Properties: { PolicyDocument: { Statement: unknown[] } } }).Properties.PolicyDocument.Statement,
    );
  const logicalIdOf = (scope: Stack, table: ServiceTable['table']) =>
    scope.resolve((table.node.defaultChild as unknown as { logicalId: string }).logicalId) as string;
  const keyCondition = (...patterns: string[]) => ({
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
    Null: { 'dynamodb:LeadingKeys': 'false' },
  });

  it('turns each table grant into one statement limited to its partition-key prefixes', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const grants: TableGrant[] = [
      { actions: ['GetItem'], keyPrefixes: ['APIKEY#', 'SITE#'] },
      { actions: ['PutItem', 'DeleteItem'], keyPrefixes: ['CMD#'] },
      { index: 'gsi1', actions: ['Query'], keyPrefixes: ['CMD#IN_PROGRESS#'] },
    ];
    new SwitchboardFunction(scope, 'Fn', { definition: definition({ table: grants }) }).bindDeclaredAccess({
      table,
      queues: new Map(),
      secrets: new Map(),
    });
    const tableArn = { 'Fn::GetAtt': [logicalIdOf(scope, table), 'Arn'] };
    expect(statementsOf(scope).filter((statement) => JSON.stringify(statement).includes('dynamodb'))).toEqual([
      { Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: tableArn, Condition: keyCondition('APIKEY#*', 'SITE#*') },
      { Effect: 'Allow', Action: ['dynamodb:PutItem', 'dynamodb:DeleteItem'], Resource: tableArn, Condition: keyCondition('CMD#*') },
      {
        Effect: 'Allow',
        Action: 'dynamodb:Query',
        Resource: { 'Fn::Join': ['', [tableArn, '/index/gsi1']] },
        Condition: keyCondition('CMD#IN_PROGRESS#*'),
      },
    ]);
  });

  it('sets TABLE_NAME only for a function with table grants', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const none = new SwitchboardFunction(scope, 'None', { definition: definition({ table: [] }) });
    none.bindDeclaredAccess({ table, queues: new Map(), secrets: new Map() });
    const some = new SwitchboardFunction(scope, 'Some', { definition: definition({}) });
    some.bindDeclaredAccess({ table, queues: new Map(), secrets: new Map() });
    const variables = (fn: SwitchboardFunction) =>
      Template.fromStack(scope).toJSON().Resources[
        scope.resolve((fn.function.node.defaultChild as unknown as { logicalId: string }).logicalId)
      ].Properties.Environment.Variables as Record<string, unknown>;
    expect(variables(none)).not.toHaveProperty('TABLE_NAME');
    expect(variables(some).TABLE_NAME).toEqual({ Ref: logicalIdOf(scope, table) });
  });

  it.each([
    [
      'an index grant for anything but Query',
      [{ index: 'gsi1', actions: ['Query', 'GetItem'], keyPrefixes: ['CMD#IN_PROGRESS#'] }],
      /index grant allows Query only/,
    ],
    ['a grant without prefixes', [{ actions: ['GetItem'], keyPrefixes: [] }], /needs actions and keyPrefixes/],
    ['a grant without actions', [{ actions: [], keyPrefixes: ['CMD#'] }], /needs actions and keyPrefixes/],
    ['a table prefix on an index', [{ index: 'gsi1', actions: ['Query'], keyPrefixes: ['CMD#'] }], /unknown key prefix CMD#/],
    ['an unknown index', [{ index: 'gsi9', actions: ['Query'], keyPrefixes: ['CMD#IN_PROGRESS#'] }], /no index gsi9/],
  ])('refuses %s', (_, grants, message) => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ table: grants as unknown as TableGrant[] }) });
    expect(() => fn.bindDeclaredAccess({ table, queues: new Map(), secrets: new Map() })).toThrow(message);
  });

  it('acknowledges "*" to cdk-nag for the X-Ray statement only: a later "*" grant is a finding', () => {
    const findings = (addWildcard: boolean) => {
      const scope = stack(false);
      const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ table: [] }) });
      if (addWildcard) fn.role.addToPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: ['*'] }));
      return new AwsSolutionsChecks(scope)
        .validateScope(scope)
        .violations.filter((violation) => violation.ruleName.startsWith('AwsSolutions-IAM5'))
        .map((violation) => [violation.ruleName, violation.violatingResources.map((resource) => resource.constructPath)]);
    };
    expect(findings(false)).toEqual([]);
    expect(findings(true)).toEqual([['AwsSolutions-IAM5[Resource::*]', ['Test/Fn/Role/DefaultPolicy/Resource']]]);
  });

  it('names the missing queue when a definition sends to a queue that was not built', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ sendsTo: ['sales'] }) });
    expect(() => fn.bindDeclaredAccess({ table, queues: new Map(), secrets: new Map() })).toThrow(/No queue "sales"/);
  });

  it('sets the queue URL variable and SendMessage on that queue only', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const queue = new Queue(scope, 'Q');
    const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ sendsTo: ['sales'] }) });
    fn.bindDeclaredAccess({ table, queues: new Map([['sales', { queue, deadLetterQueue: queue }]]), secrets: new Map() });
    const template = Template.fromStack(scope);
    const queueId = scope.resolve((queue.node.defaultChild as unknown as { logicalId: string }).logicalId) as string;
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { SALES_QUEUE_URL: { Ref: queueId } } },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Action: ['logs:CreateLogStream', 'logs:PutLogEvents'] },
          { Action: 'dynamodb:GetItem', Condition: Match.anyValue() },
          { Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [queueId, 'Arn'] } },
        ].map((statement) => ({ Effect: 'Allow', ...statement, Resource: statement.Resource ?? Match.anyValue() })),
      },
    });
  });

  it('copies the files a function reads into its bundle, and tells it where they are in Lambda', () => {
    const outdir = tempDir('bundle');
    try {
      const app = testApp({ outdir });
      const scope = new Stack(app, 'Bundled');
      const file = { source: 'infra/local/demo-data.json', setting: 'DEMO_DATA_FILE' };
      const fn = new SwitchboardFunction(scope, 'Fn', {
        definition: { ...definition({ table: [] }), entry: 'functions/api/health.ts', bundledFiles: [file] },
      });
      const asset = assetOf(scope, fn, app.synth().directory);
      const properties = Template.fromStack(scope).toJSON().Resources[
        scope.resolve((fn.function.node.defaultChild as unknown as { logicalId: string }).logicalId)
      ].Properties as { Environment: { Variables: Record<string, string> } };
      expect(properties.Environment.Variables.DEMO_DATA_FILE).toBe('/var/task/infra/local/demo-data.json');
      // Source maps are off by default: no map shipped, none parsed at cold start.
      expect(properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
      expect(readdirSync(asset).sort()).toEqual(['index.mjs', 'infra']);
      expect(readFileSync(join(asset, file.source), 'utf8')).toBe(readFileSync(join(REPOSITORY_ROOT, file.source), 'utf8'));
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 60_000);

  it('bundles the local corpus with the research worker, which reads it through SEARCH_CORPUS_FILE', () => {
    const worker = functionById('researchWorker');
    expect(worker.bundledFiles).toEqual([{ source: 'shared/providers/search/corpus/sample-news.jsonl', setting: 'SEARCH_CORPUS_FILE' }]);
    expect(statSync(join(REPOSITORY_ROOT, worker.bundledFiles![0]!.source)).size).toBeGreaterThan(10_000);
    const scope = stack(false);
    const fn = new SwitchboardFunction(scope, 'Research', { definition: worker });
    const variables = Template.fromStack(scope).toJSON().Resources[
      scope.resolve((fn.function.node.defaultChild as unknown as { logicalId: string }).logicalId)
    ].Properties.Environment.Variables as Record<string, string>;
    expect(variables.SEARCH_CORPUS_FILE).toBe('/var/task/shared/providers/search/corpus/sample-news.jsonl');
  });

  it('bundles each worker-thread script beside index.mjs, where the bundled, code-split page parser starts it (a plain node runs both, maps on)', async () => {
    const outdir = tempDir('bundle');
    try {
      const app = testApp({ outdir });
      const scope = new Stack(app, 'Bundled');
      const fn = new SwitchboardFunction(scope, 'Fn', {
        definition: {
          ...definition({ table: [] }),
          entry: 'test/infra/fixtures/page-parse-handler.ts',
          workerBundles: [PAGE_PARSE_WORKER],
          // As the research worker is bundled: the parser may sit in index.mjs or in a chunk under chunks/.
          lazyChunks: true,
        },
        sourceMaps: true,
      });
      const asset = assetOf(scope, fn, app.synth().directory);
      expect(
        readdirSync(asset)
          .filter((name) => name !== 'chunks')
          .sort(),
      ).toEqual(['index.mjs', 'index.mjs.map', 'page-parse-worker.mjs', 'page-parse-worker.mjs.map']);
      expect(scope.resolve((fn.function.node.defaultChild as CfnFunction).environment)).toMatchObject({
        variables: { NODE_OPTIONS: '--enable-source-maps' },
      });

      const article =
        '<html><head><title>Orders double</title></head><body><article><p>The chipmaker said orders for AI accelerators doubled this year.</p></article></body></html>';
      const slow = `<html><body>${'<div>'.repeat(2_000)}<p>deep</p></body></html>`;
      const script = `
        const { handler } = await import(${JSON.stringify(pathToFileURL(join(asset, 'index.mjs')).href)});
        const read = await handler({ html: ${JSON.stringify(article)}, timeoutMs: 10000 });
        const stopped = await handler({ html: ${JSON.stringify(slow)}, timeoutMs: 500 });
        process.stdout.write(JSON.stringify({ read, stopped }));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
        timeout: 30_000,
      });

      expect(JSON.parse(stdout)).toEqual({
        read: { page: { title: 'Orders double', text: 'The chipmaker said orders for AI accelerators doubled this year.' } },
        stopped: { failed: 'PageFetchError: the page could not be read in time' },
      });
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 90_000);

  it('bundles the form-data stand-in for the real package, as BUNDLE_ALIASES names it', async () => {
    const outdir = tempDir('bundle');
    try {
      const app = testApp({ outdir });
      const scope = new Stack(app, 'Bundled');
      const fn = new SwitchboardFunction(scope, 'Fn', {
        definition: { ...definition({ table: [] }), entry: 'test/infra/fixtures/form-data-handler.ts', lazyChunks: true },
      });
      const asset = assetOf(scope, fn, app.synth().directory);
      const script = `
        const { handler } = await import(${JSON.stringify(pathToFileURL(join(asset, 'index.mjs')).href)});
        process.stdout.write(await handler());`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 });

      expect(stdout).toMatch(/^form-data is not bundled/);
      expect(readFileSync(join(asset, 'index.mjs'), 'utf8')).not.toContain('application/vnd.');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 90_000);

  it("code-splits the relay socket: its cold start reads no OpenAI client, and every chunk loads as Lambda's node would", async () => {
    const outdir = tempDir('bundle');
    try {
      const relay = functionById('conversationRelayWebhook');
      expect(relay.lazyChunks).toBe(true);
      const app = testApp({ outdir });
      const scope = new Stack(app, 'Split');
      const fn = new SwitchboardFunction(scope, 'Relay', { definition: { ...relay, access: { ...relay.access, table: [] } } });
      const asset = assetOf(scope, fn, app.synth().directory);
      const chunks = readdirSync(join(asset, 'chunks'));
      const index = readFileSync(join(asset, 'index.mjs'), 'utf8');
      // The OpenAI adapter and its library are in a chunk the entry only names in an import().
      expect(index).not.toContain('api.openai.com');
      const openAiChunk = chunks.find((chunk) => readFileSync(join(asset, 'chunks', chunk), 'utf8').includes('api.openai.com'));
      expect(openAiChunk).toBeDefined();
      expect(index).not.toMatch(new RegExp(`^import[^;]*${openAiChunk!.replace(/\./g, '\\.')}`, 'm'));
      // Built with its deployed settings' constants: no tracing anywhere in it (the X-Ray daemon's protocol header is its mark).
      expect([index, ...chunks.map((chunk) => readFileSync(join(asset, 'chunks', chunk), 'utf8'))].join('\n')).not.toContain(
        '"format": "json", "version": 1',
      );

      const settings = {
        TABLE_NAME: 't',
        SUMMARY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/summary',
        AWS_REGION: 'us-east-1',
      };
      const script = `
        const { handler } = await import(${JSON.stringify(pathToFileURL(join(asset, 'index.mjs')).href)});
        for (const chunk of ${JSON.stringify(chunks)}) await import(${JSON.stringify(pathToFileURL(join(asset, 'chunks')).href)} + '/' + chunk);
        process.stdout.write(typeof handler);`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
        timeout: 30_000,
        env: {
          PATH: process.env.PATH ?? '',
          AWS_LAMBDA_FUNCTION_NAME: 'conversationRelayWebhook',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          ...settings,
        },
      });
      expect(stdout).toBe('function');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 90_000);

  it('gives the research worker the page parse worker, since its page reader parses in worker threads', () => {
    expect(functionById('researchWorker').workerBundles).toEqual([PAGE_PARSE_WORKER]);
    expect(readFileSync(join(REPOSITORY_ROOT, 'functions/workers/research.ts'), 'utf8')).toContain('lazyPageReader(');
    expect(readFileSync(join(REPOSITORY_ROOT, 'shared/providers/web/lazy-page-reader.ts'), 'utf8')).toContain('createPageReader(');
    expect(statSync(join(REPOSITORY_ROOT, PAGE_PARSE_WORKER.source)).isFile()).toBe(true);
  });

  describe('the entry NodejsFunction bundles', () => {
    const placeholder = join(REPOSITORY_ROOT, 'infra/constructs/bundle-shims/split-entry-placeholder.ts');

    it('is a placeholder for a code-split function, whose hook bundles the real entry: each synth bundles it once', () => {
      const split = { ...definition({}), entry: 'functions/api/health.ts', lazyChunks: true };

      expect(nodejsFunctionEntry(stack(true), REPOSITORY_ROOT, split)).toBe(placeholder);
      expect(lazyChunksCommand(split.entry, {}, '/in', '/out')).toMatch(
        /^cd "\/in" && node_modules\/\.bin\/esbuild "functions\/api\/health\.ts" --bundle --splitting /,
      );
      expect(existsSync(join(REPOSITORY_ROOT, 'node_modules/.bin/esbuild'))).toBe(true);
    });

    it("is the function's own entry for a function bundled whole", () => {
      const whole = { ...definition({}), entry: 'functions/api/health.ts', lazyChunks: false };

      expect(nodejsFunctionEntry(stack(true), REPOSITORY_ROOT, whole)).toBe(join(REPOSITORY_ROOT, 'functions/api/health.ts'));
    });

    it('is the real entry when the project root does not hold the placeholder (NodejsFunction refuses an entry outside it)', () => {
      const root = tempDir('project');
      try {
        writeFileSync(join(root, 'entry.ts'), 'export const handler = async () => 1;\n');

        expect(nodejsFunctionEntry(stack(true), root, { ...definition({}), entry: 'entry.ts', lazyChunks: true })).toBe(
          join(root, 'entry.ts'),
        );
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });

    it('fails synth for a missing entry when bundling, code split or not', () => {
      expect(() => nodejsFunctionEntry(stack(true), REPOSITORY_ROOT, { ...definition({}), lazyChunks: true })).toThrow(
        /Cannot find entry file/,
      );
      expect(() => nodejsFunctionEntry(stack(true), REPOSITORY_ROOT, { ...definition({}), lazyChunks: false })).toThrow(
        /Cannot find entry file/,
      );
      expect(nodejsFunctionEntry(stack(false), REPOSITORY_ROOT, { ...definition({}), lazyChunks: true })).not.toContain('does-not-exist');
    });
  });

  it('fails synth on a missing entry when the stack is bundled', () => {
    expect(() => new SwitchboardFunction(stack(true), 'Fn', { definition: definition({}) })).toThrow(/Cannot find entry file/);
  });
});
