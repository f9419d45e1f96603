import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { asDeployed, bundleDefines, functionBundleOptions } from '../../infra/constructs/bundle-options';
import { FUNCTIONS, type FunctionId } from '../../shared/catalogue/functions';

/**
 * Bundle-size budgets: each function's index.mjs (and each worker-thread
 * bundle) as the CDK construct builds it, minified, without its source map,
 * in KiB, as an environment deploys it by default (API routes and webhooks
 * without in-process tracing: asDeployed). About 10% above the sizes of 2026-11-26
 * and 2026-11-27 (the comments), so an import that drags a library
 * into a function (the whole twilio library is 3.2 MB; zod 100 KB) fails
 * here rather than in the cold start. Raise a budget on purpose, in the
 * commit that needs it; docs/performance.md says what they are for.
 */
const BUDGETS_KIB: Readonly<Record<FunctionId, number>> = {
  healthApi: 10, // 1.3 KiB: answers without a client
  apiDocsApi: 460, // 411 with zod/mini (472 with the chainable zod; 585 with the X-Ray SDK)
  notFoundApi: 470, // 427 without the X-Ray SDK (593 with it)
  getCommandApi: 490, // 441 without the X-Ray SDK (602 with it)
  deleteCommandApi: 520, // 466 with zod/mini (528 with the chainable zod; 623 with the X-Ray SDK)
  listFollowUpsApi: 510, // 460 with zod/mini (522 with the chainable zod; 624 with the X-Ray SDK)
  listSiteFollowUpsApi: 510, // 460 with zod/mini (521 with the chainable zod; 630 with the X-Ray SDK)
  listCommandsApi: 490, // 441 with zod/mini (502 with the chainable zod; 612 with the X-Ray SDK)
  usageApi: 480, // 433 with zod/mini (485 with the chainable zod; about 607 with the X-Ray SDK)
  pauseFollowUpsApi: 510, // 460 with zod/mini (521 with the chainable zod)
  crmSyncsApi: 480, // 435 without the X-Ray SDK (600 with it)
  updateFollowUpApi: 560, // 503 with zod/mini (565 with the chainable zod; 672 with the X-Ray SDK; the crm_sync job it queues: its schema)
  followUpDispatcher: 540, // 497 without the X-Ray SDK (655 with it)
  commandJanitor: 540, // 489 without the X-Ray SDK (648 with it)
  deepResearchApi: 550, // 500 with zod/mini (562 with the chainable zod; 661 with the X-Ray SDK)
  leadFollowUpApi: 560, // 507 with zod/mini (567 with the chainable zod; 665 with the X-Ray SDK)
  webhooksApi: 560, // 510 with zod/mini (574 with the chainable zod; 665 with the X-Ray SDK)
  webhookDeliveryWorker: 560, // 512 without the X-Ray SDK (669 with it)
  webhookTestApi: 520, // 467 with zod/mini (530 with the chainable zod)
  // The HubSpot APIs it calls, not the whole client (4.5 MB): shared/providers/crm/hubspot-apis.ts.
  // form-data's stand-in (bundle-shims/form-data.ts) leaves the MIME type table out (161 KiB each), and the generic objects
  // API stands for the per-object ones (245 KiB each).
  crmConnectionApi: 1_020, // 923 (1168 per object, 1331 with form-data; 1494 with the X-Ray SDK; the import's start included)
  crmImportWorker: 1_050, // 954 (1199 per object, 1360 with form-data; 1518 with the X-Ray SDK)
  // No HubSpot client: it reads the links and starts the re-import; the lead events use case (most of it) is a chunk a reply loads.
  hubspotWebhook: 620, // 562 with zod/mini (624 with the chainable zod; 725 with the X-Ray SDK)
  crmSyncWorker: 1_000, // 909 (1155 per object, 1316 with form-data; 1484 with the X-Ray SDK)
  leadEventsApi: 600, // 541 with zod/mini (604 with the chainable zod; 688 with the X-Ray SDK; the write-back's queueing included)
  // The status callback and the relay check Twilio signatures without the twilio library (4.6 MB with it).
  // Neither carries the tracer (deployed with tracing off: bundleDefines).
  twilioCallStatusWebhook: 590, // 529 (zod/mini and no tracer: 694 before)
  conversationRelayWebhook: 760, // 686 whole (the OpenAI client is in it, a chunk of its own: lazyChunks)
  postCallSummaryWorker: 780, // 706 without the X-Ray SDK (836 with it)
  copywriterWorker: 790, // 714 without the X-Ray SDK (844 with it)
  salesWorker: 810, // 736 without the X-Ray SDK (864 with it)
  // libphonenumber-js (191 KiB) a chunk of its own, read by the first request that lists a number.
  stakeholderCoordinationApi: 790, // 714 with zod/mini (779 with the chainable zod; 870 with the X-Ray SDK)
  researchWorker: 850, // 770 without the X-Ray SDK (930 with it; the HTML parser and Readability only in its parse worker; 1367 before)
  // The one function that places calls: the twilio REST client is its job.
  callWorker: 5_130, // 4658 without the X-Ray SDK (4782 with it)
};
/** Worker-thread bundles, by their source. */
const WORKER_BUDGETS_KIB: Readonly<Record<string, number>> = {
  'shared/providers/web/parse-worker.ts': 520, // 474
};

const ROOT = resolve(import.meta.dirname, '..', '..');
const KIB = 1024;

interface Measured {
  name: string;
  kib: number;
  budget: number;
  /** The heaviest packages in the bundle, for the failure message. */
  heaviest: string;
  /** Every package in the bundle. */
  packages: Set<string>;
  /** Every file in the bundle. */
  files: Set<string>;
  /** The bytes each file adds to the bundle (esbuild also lists files whose every export was shaken out). */
  bytesByFile: Map<string, number>;
  /** The packages its entry reaches through static imports: what a cold start evaluates (the rest waits for an `import()`). */
  loadedAtImport: Set<string>;
  /** The files behind `loadedAtImport`. */
  filesLoadedAtImport: Set<string>;
}

interface Entry {
  name: string;
  source: string;
  budget: number;
  /** Its deployed settings' constants (bundleDefines). */
  define: Record<string, string>;
}

/** Every entry, one esbuild run per set of constants (parsed once; without code splitting each output is the whole bundle of its entry). */
async function measureAll(entries: Entry[]): Promise<Measured[]> {
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) groups.set(JSON.stringify(entry.define), [...(groups.get(JSON.stringify(entry.define)) ?? []), entry]);
  return (await Promise.all([...groups.values()].map(measureBuild))).flat();
}

async function measureBuild(entries: Entry[]): Promise<Measured[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: entries.map((entry, index) => ({ in: entry.source, out: `b${index}` })),
    outdir: 'out',
    write: false,
    ...functionBundleOptions(ROOT),
    define: entries[0]!.define,
    metafile: true,
    logLevel: 'error',
  });
  return entries.map((entry, index) => {
    const output = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith(`/b${index}.js`))?.[1];
    if (!output) throw new Error(`no output for ${entry.name}`);
    return {
      name: entry.name,
      kib: output.bytes / KIB,
      budget: entry.budget,
      heaviest: heaviestPackages(output),
      packages: new Set(Object.keys(output.inputs).map(packageOf)),
      files: new Set(Object.keys(output.inputs)),
      bytesByFile: new Map(Object.entries(output.inputs).map(([path, { bytesInOutput }]) => [path, bytesInOutput])),
      loadedAtImport: new Set([...staticallyReachedFiles(result.metafile, entry.source)].map(packageOf)),
      filesLoadedAtImport: staticallyReachedFiles(result.metafile, entry.source),
    };
  });
}

function packageOf(path: string): string {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? '(own code)';
}

/** The files reached from `entry` through static imports and `require` alone, not through `import()`. */
function staticallyReachedFiles(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of metafile.inputs[path]?.imports ?? []) {
      if (imported.kind !== 'dynamic-import' && !imported.external) pending.push(imported.path);
    }
  }
  return seen;
}

function heaviestPackages(output: Metafile['outputs'][string]): string {
  const byPackage = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, bytes]) => `${name} ${(bytes / KIB).toFixed(0)} KiB`)
    .join(', ');
}

let measured: Measured[];
beforeAll(async () => {
  measured = await measureAll([
    ...FUNCTIONS.map((fn) => ({
      name: fn.id,
      source: fn.entry,
      budget: BUDGETS_KIB[fn.id],
      define: bundleDefines(asDeployed(fn).deployedSettings),
    })),
    ...Object.entries(WORKER_BUDGETS_KIB).map(([source, budget]) => ({ name: source, source, budget, define: {} })),
  ]);
}, 120_000);

describe('bundle-size budgets', () => {
  it('has a budget for every function and worker-thread bundle of the catalogue, and for nothing else', () => {
    expect(Object.keys(BUDGETS_KIB).sort()).toEqual(FUNCTIONS.map((fn) => fn.id).sort());
    const workerSources = [...new Set(FUNCTIONS.flatMap((fn) => (fn.workerBundles ?? []).map((worker) => worker.source)))];
    expect(Object.keys(WORKER_BUDGETS_KIB).sort()).toEqual(workerSources.sort());
  });

  it('keeps every bundle within its budget', () => {
    const over = measured
      .filter((bundle) => bundle.kib > bundle.budget)
      .map((bundle) => `${bundle.name}: ${bundle.kib.toFixed(0)} KiB > ${bundle.budget} KiB (${bundle.heaviest})`);
    expect(over).toEqual([]);
  });

  it('measures what a function imports (the call worker carries the twilio REST client)', () => {
    const callWorker = measured.find((bundle) => bundle.name === 'callWorker')!;
    expect(callWorker.heaviest).toMatch(/^twilio \d+ KiB/);
    expect(callWorker.kib).toBeGreaterThan(3_000);
    for (const name of ['twilioCallStatusWebhook', 'conversationRelayWebhook']) {
      expect(measured.find((bundle) => bundle.name === name)!.heaviest).not.toMatch(/twilio/);
    }
  });

  it("code splits every function: the SDK's other credential providers, and the call worker's twilio client, wait for an import()", () => {
    expect(FUNCTIONS.filter((fn) => fn.lazyChunks !== true).map((fn) => fn.id)).toEqual([]);
    const callWorker = measured.find((bundle) => bundle.name === 'callWorker')!;
    expect(callWorker.packages).toContain('twilio');
    expect(callWorker.loadedAtImport).not.toContain('twilio');
    expect(measured.find((bundle) => bundle.name === 'commandJanitor')!.packages).toContain('@aws-sdk/credential-provider-sso');
    const ssoAtColdStart = measured.filter((bundle) => bundle.loadedAtImport.has('@aws-sdk/credential-provider-sso'));
    expect(ssoAtColdStart.map((bundle) => bundle.name)).toEqual([]);
  });

  it("derives only its own definition at cold start, never the service's whole FUNCTIONS table", () => {
    const derivingAll = measured.filter((bundle) => bundle.files.has('shared/catalogue/functions.ts'));
    expect(derivingAll.map((bundle) => bundle.name)).toEqual([]);
    expect(measured.find((bundle) => bundle.name === 'getCommandApi')!.filesLoadedAtImport).toContain(
      'shared/catalogue/function-definitions.ts',
    );
  });

  it("leaves the OpenAI client out of the relay socket's cold start: only the first model call imports it", () => {
    const relay = measured.find((bundle) => bundle.name === 'conversationRelayWebhook')!;
    expect(relay.packages).toContain('openai');
    expect(relay.loadedAtImport).not.toContain('openai');
    expect(relay.loadedAtImport).toContain('zod');
  });

  it("leaves the HubSpot client out of the CRM sync worker's cold start: only a connected tenant's first write imports it", () => {
    const sync = measured.find((bundle) => bundle.name === 'crmSyncWorker')!;
    expect(sync.packages).toContain('@hubspot/api-client');
    expect(sync.loadedAtImport).not.toContain('@hubspot/api-client');
    expect(FUNCTIONS.find((fn) => fn.id === 'crmSyncWorker')!.lazyChunks).toBe(true);
  });

  it("reads HubSpot's records through the generic objects API only, and leaves the lists API out of the CRM import's cold start", () => {
    const crmImport = measured.find((bundle) => bundle.name === 'crmImportWorker')!;
    const generated = (files: Set<string>) =>
      [...files].filter((file) => file.includes('@hubspot/api-client/lib/codegen/crm/')).map((file) => file.split('/codegen/crm/')[1]!);
    // One generated module for every object type, none of the per-object ones (contacts, objects/notes, …) repeating its models.
    expect(generated(crmImport.files).filter((file) => /^(contacts|objects\/(notes|emails|calls))\//.test(file))).toEqual([]);
    const atImport = generated(crmImport.filesLoadedAtImport);
    expect(atImport).toContain('objects/apis/BasicApi.js');
    expect(atImport).toContain('objects/apis/BatchApi.js');
    expect(atImport).toContain('associations/v4/apis/BatchApi.js');
    expect(generated(crmImport.files)).toContain('lists/apis/MembershipsApi.js');
    expect(atImport.filter((file) => file.startsWith('lists/'))).toEqual([]);
  });

  it("gives the HubSpot client's transport the form-data stand-in: no bundle carries the MIME type table", () => {
    const withForms = measured.filter((bundle) => bundle.packages.has('form-data') || bundle.packages.has('mime-db'));
    expect(withForms.map((bundle) => bundle.name)).toEqual([]);
    const crmImport = measured.find((bundle) => bundle.name === 'crmImportWorker')!;
    expect(crmImport.filesLoadedAtImport).toContain('infra/constructs/bundle-shims/form-data.ts');
  });

  it("leaves the lead events use case out of the HubSpot webhook's cold start: only a reply or bounce it reports imports it", () => {
    const webhook = measured.find((bundle) => bundle.name === 'hubspotWebhook')!;
    for (const file of ['shared/lead-follow-up/sequences/lead-events.ts', 'shared/lead-follow-up/sequences/step-store.ts']) {
      expect(webhook.files).toContain(file);
      expect(webhook.filesLoadedAtImport).not.toContain(file);
    }
    expect(webhook.filesLoadedAtImport).toContain('shared/crm/webhook-receiver.ts');
  });

  // Address checks (ipaddr.js builds its range tables at import) only where some requests need them.
  it.each([
    // Only a registration or URL change checks an endpoint's URL.
    { name: 'webhooksApi', lazy: 'shared/webhooks/endpoint-url.ts', kept: 'shared/webhooks/endpoint-url-policy.ts' },
    // Only an advanced content analysis reads pages.
    { name: 'researchWorker', lazy: 'shared/providers/web/page-reader.ts', kept: 'shared/providers/web/lazy-page-reader.ts' },
  ])("leaves the address checks (ipaddr.js) out of $name's cold start: $lazy is imported on first use", ({ name, lazy, kept }) => {
    const bundle = measured.find((measuredBundle) => measuredBundle.name === name)!;
    expect(bundle.packages).toContain('ipaddr.js');
    expect(bundle.loadedAtImport).not.toContain('ipaddr.js');
    expect(bundle.filesLoadedAtImport).not.toContain(lazy);
    expect(bundle.filesLoadedAtImport).toContain(kept);
  });

  // A route's body schema only where every request needs it: a function serving several routes builds the others' on first use.
  it.each([
    // Registering, changing and rotating take a body; listing, showing and deleting endpoints (the most frequent) do not.
    { name: 'webhooksApi', lazy: 'shared/webhooks/endpoint-bodies.ts', kept: 'shared/webhooks/endpoints-api.ts' },
    // Only a connect takes the connection's body; only an import starts an import.
    { name: 'crmConnectionApi', lazy: 'shared/crm/connection-body.ts', kept: 'shared/crm/connection-api.ts' },
    { name: 'crmConnectionApi', lazy: 'shared/crm/import-request.ts', kept: 'shared/crm/routes.ts' },
    // Only a reply drafts an answer through the lead follow-up route's parser; opens, clicks and bounces never build it.
    { name: 'leadEventsApi', lazy: 'shared/lead-follow-up/schema.ts', kept: 'shared/lead-follow-up/sequences/lead-events.ts' },
  ])('builds $lazy in $name only for the requests that need it', ({ name, lazy, kept }) => {
    const bundle = measured.find((measuredBundle) => measuredBundle.name === name)!;
    expect(bundle.files).toContain(lazy);
    expect(bundle.filesLoadedAtImport).not.toContain(lazy);
    expect(bundle.filesLoadedAtImport).toContain(kept);
  });

  it("leaves the HubSpot client out of the connection API's cold start: only a connect (its token check) imports it", () => {
    const api = measured.find((bundle) => bundle.name === 'crmConnectionApi')!;
    expect(api.packages).toContain('@hubspot/api-client');
    expect(api.loadedAtImport).not.toContain('@hubspot/api-client');
    expect(FUNCTIONS.find((fn) => fn.id === 'crmConnectionApi')!.lazyChunks).toBe(true);
  });

  it('leaves the OpenAI client out of the cold start of the workers that write with the model: their first model call imports it', () => {
    for (const name of ['salesWorker', 'copywriterWorker', 'postCallSummaryWorker']) {
      const worker = measured.find((bundle) => bundle.name === name)!;
      expect(worker.packages).toContain('openai');
      expect(worker.loadedAtImport).not.toContain('openai');
      expect(FUNCTIONS.find((fn) => fn.id === name)!.lazyChunks).toBe(true);
    }
  });

  it('leaves X-Ray tracing out of the bundles of functions deployed with tracing off, and in the others, never the X-Ray SDK', () => {
    const traced = (name: string) => measured.find((bundle) => bundle.name === name)!.files.has('shared/platform/xray/tracing.ts');
    const sdk = measured.filter(
      (bundle) => bundle.packages.has('aws-xray-sdk-core') || bundle.packages.has('@aws-lambda-powertools/tracer'),
    );
    expect(sdk.map((bundle) => bundle.name)).toEqual([]);
    const off = (fn: (typeof FUNCTIONS)[number]) => asDeployed(fn).deployedSettings?.POWERTOOLS_TRACE_ENABLED === 'false';
    // By default every function a caller waits on is deployed with tracing off, and every worker and scheduled function with it on.
    expect(FUNCTIONS.filter(off).map((fn) => fn.id)).toEqual(
      FUNCTIONS.filter((fn) => fn.kind === 'api' || fn.kind === 'webhook').map((fn) => fn.id),
    );
    expect(FUNCTIONS.filter((fn) => off(fn) && traced(fn.id)).map((fn) => fn.id)).toEqual([]);
    expect(FUNCTIONS.filter((fn) => !off(fn) && !traced(fn.id)).map((fn) => fn.id)).toEqual([]);
  });

  it("keeps zod's chainable API out of every function's cold start: their schemas are zod/mini (the reference's code alone uses it)", async () => {
    const classicIn = (bundle: Measured) => [...bundle.filesLoadedAtImport].filter((file) => file.includes('node_modules/zod/v4/classic/'));
    const functions = FUNCTIONS.map((fn) => fn.id);
    expect(functions).toEqual(expect.arrayContaining(['stakeholderCoordinationApi', 'salesWorker', 'callWorker', 'crmImportWorker']));
    for (const name of functions) {
      expect([name, classicIn(measured.find((bundle) => bundle.name === name)!)]).toEqual([name, []]);
    }
    // The measure can see it: a handler that parses with the chainable API loads it.
    const [control] = await measureBuild([
      { name: 'control', source: 'test/infra/fixtures/classic-zod-handler.ts', budget: Number.POSITIVE_INFINITY, define: {} },
    ]);
    expect(classicIn(control!).length).toBeGreaterThan(0);
  });

  it("keeps zod's JSON Schema converter out of the functions that call a model: the strict schema of an answer is built by our own", () => {
    const modelCallers = [
      'conversationRelayWebhook',
      'salesWorker',
      'copywriterWorker',
      'researchWorker',
      'postCallSummaryWorker',
      'callWorker',
    ];
    // The converter is about 20 KiB; with it shaken out, esbuild leaves a stub of a few bytes for each of its two namespaces.
    const converterBytes = (bundle: Measured) =>
      [...bundle.bytesByFile]
        .filter(([file]) => /node_modules\/zod\/v4\/core\/(json-schema|to-json-schema|json-schema-processors)\.js$/.test(file))
        .reduce((sum, [, bytes]) => sum + bytes, 0);
    for (const name of modelCallers) {
      const bundle = measured.find((candidate) => candidate.name === name)!;
      expect(bundle.bytesByFile.get('shared/providers/llm/strict-schema.ts')).toBeGreaterThan(500);
      expect([name, converterBytes(bundle) < 100]).toEqual([name, true]);
    }
  });

  it('leaves the SQS client out of the cold start of functions that send on only some requests, and in the others', () => {
    const composition = (fn: (typeof FUNCTIONS)[number]) => readFileSync(resolve(ROOT, fn.entry), 'utf8');
    const onFirstSend = FUNCTIONS.filter((fn) => composition(fn).includes('jobQueueOnFirstSendOf(')).map((fn) => fn.id);
    expect(onFirstSend).toEqual(
      expect.arrayContaining(['webhooksApi', 'leadEventsApi', 'crmConnectionApi', 'twilioCallStatusWebhook', 'conversationRelayWebhook']),
    );
    for (const name of onFirstSend) {
      const bundle = measured.find((candidate) => candidate.name === name)!;
      expect([name, bundle.packages.has('@aws-sdk/client-sqs'), bundle.loadedAtImport.has('@aws-sdk/client-sqs')]).toEqual([
        name,
        true,
        false,
      ]);
    }
    // The measure can see it: a function that sends on every request builds its client at cold start.
    for (const name of ['leadFollowUpApi', 'salesWorker']) {
      expect([name, measured.find((bundle) => bundle.name === name)!.loadedAtImport.has('@aws-sdk/client-sqs')]).toEqual([name, true]);
    }
  });

  it('leaves the Secrets Manager client out of the cold start of functions that read a secret on only some requests, and in the others', () => {
    const composition = (fn: (typeof FUNCTIONS)[number]) => readFileSync(resolve(ROOT, fn.entry), 'utf8');
    const onFirstRead = FUNCTIONS.filter((fn) => composition(fn).includes('secretsOnFirstReadOf(')).map((fn) => fn.id);
    expect(onFirstRead).toEqual(expect.arrayContaining(['crmConnectionApi']));
    for (const name of onFirstRead) {
      const bundle = measured.find((candidate) => candidate.name === name)!;
      expect([
        name,
        bundle.packages.has('@aws-sdk/client-secrets-manager'),
        bundle.loadedAtImport.has('@aws-sdk/client-secrets-manager'),
      ]).toEqual([name, true, false]);
    }
    // The measure can see it: a function whose every request checks a signature with a secret loads the client at cold start.
    for (const name of ['twilioCallStatusWebhook', 'hubspotWebhook']) {
      const bundle = measured.find((candidate) => candidate.name === name)!;
      expect([name, bundle.loadedAtImport.has('@aws-sdk/client-secrets-manager')]).toEqual([name, true]);
    }
  });

  it("leaves libphonenumber-js's full metadata out of the stakeholder route's cold start: the first request listing a number reads it", () => {
    const api = measured.find((bundle) => bundle.name === 'stakeholderCoordinationApi')!;
    expect(api.packages).toContain('libphonenumber-js');
    expect(api.loadedAtImport).not.toContain('libphonenumber-js');
    expect(FUNCTIONS.find((fn) => fn.id === 'stakeholderCoordinationApi')!.lazyChunks).toBe(true);
  });
});
