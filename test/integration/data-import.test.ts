import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { readFile } from 'node:fs/promises';
import { DEMO_DATA_FILE, importFile } from '../../infra/local/provision';
import { dynamoTenantStore } from '../../shared/access/dynamo-tenants';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';
import { importDataFile } from '../../shared/sites/import';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

let services: EmbeddedServices;
beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());

const itemCount = async () => (await services.db.send(new ScanCommand({ TableName: services.aws.tableName }))).Items?.length ?? 0;
const tenantItems = async () =>
  (await services.db.send(new ScanCommand({ TableName: services.aws.tableName }))).Items?.filter((item) =>
    String(item.pk).startsWith('TENANT#'),
  ) ?? [];

describe('importDataFile', () => {
  it('refuses a file with one bad item anywhere, names its JSON path and writes nothing', async () => {
    const demo = JSON.parse(await readFile(new URL('../../infra/local/demo-data.json', import.meta.url), 'utf8'));
    demo.sites.push({
      id: 'second-site',
      name: 'Second',
      leads: [
        { id: 'l1', name: 'Ann' },
        { id: 'l2', name: 'Bob', pain_points: 'not a list' },
      ],
    });
    const before = await itemCount();
    await expect(importDataFile(dynamoSiteDirectory(services.db, services.aws.tableName), demo)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('$.sites[1].leads[1].pain_points'),
    });
    expect(await itemCount()).toBe(before);
  });

  it('refuses unknown fields and duplicate ids', async () => {
    const directory = dynamoSiteDirectory(services.db, services.aws.tableName);
    await expect(importDataFile(directory, { sites: [{ id: 's', name: 'S', colour: 'red' }] })).rejects.toMatchObject({
      message: expect.stringContaining('$.sites[0]'),
    });
    await expect(
      importDataFile(directory, {
        sites: [
          {
            id: 's',
            name: 'S',
            leads: [
              { id: 'a', name: 'A' },
              { id: 'a', name: 'B' },
            ],
          },
        ],
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('$.sites[0].leads[1].id') });
    expect(await itemCount()).toBe(0);
  });

  it('loads a good file: the site and each of its items are readable, leads only under their own site', async () => {
    const directory = dynamoSiteDirectory(services.db, services.aws.tableName);
    const summary = await importDataFile(directory, {
      sites: [
        {
          id: 'site-a',
          name: 'A',
          url: 'https://a.example',
          leads: [{ id: 'lead-1', name: 'Ann', email: 'ann@a.example' }],
          tasks: [{ id: 't1', title: 'Launch' }],
        },
        { id: 'site-b', name: 'B' },
      ],
    });
    expect(summary).toEqual({ sites: 2, items: 2, siteIds: ['site-a', 'site-b'] });
    expect(await directory.getSite('site-a')).toEqual({ id: 'site-a', name: 'A', url: 'https://a.example' });
    expect(await directory.getItem('site-a', 'leads', 'lead-1')).toMatchObject({ name: 'Ann' });
    expect(await directory.getItem('site-b', 'leads', 'lead-1')).toBeUndefined();
    expect(await directory.listItems('site-a', 'tasks', 10)).toEqual([{ id: 't1', title: 'Launch' }]);
  });

  it('stores UUID-shaped ids (site, lead, user, agent, visitor) in lower case and keeps other ids as given', async () => {
    const directory = dynamoSiteDirectory(services.db, services.aws.tableName);
    const [site, lead, user, agent, visitor] = [
      '9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D',
      'AB12CD34-EF56-4A78-9B0C-D1E2F3A4B5C6',
      'C0FFEE00-1234-4ABC-8DEF-0123456789AB',
      'DEADBEEF-0000-4111-8222-333344445555',
      'FACEFEED-9999-4888-9777-666655554444',
    ];
    const summary = await importDataFile(directory, {
      sites: [
        {
          id: site,
          name: 'Upper',
          users: [{ id: user, name: 'Una' }],
          visitors: [{ id: visitor }],
          agents: [{ id: agent, name: 'Sales', role: 'sales', user_id: user }],
          leads: [{ id: lead, name: 'Lee' }],
          tasks: [{ id: 'Task-One', title: 'Keep my case' }],
        },
      ],
    });

    const lower = site.toLowerCase();
    expect(summary.siteIds).toEqual([lower]);
    expect(await directory.getSite(lower)).toEqual({ id: lower, name: 'Upper' });
    expect(await directory.getSite(site)).toBeUndefined();
    expect(await directory.getItem(lower, 'leads', lead.toLowerCase())).toMatchObject({ id: lead.toLowerCase() });
    expect(await directory.getItem(lower, 'users', user.toLowerCase())).toMatchObject({ id: user.toLowerCase() });
    expect(await directory.getItem(lower, 'visitors', visitor.toLowerCase())).toMatchObject({ id: visitor.toLowerCase() });
    expect(await directory.getItem(lower, 'agents', agent.toLowerCase())).toMatchObject({
      id: agent.toLowerCase(),
      user_id: user.toLowerCase(),
    });
    expect(await directory.getItem(lower, 'tasks', 'Task-One')).toMatchObject({ title: 'Keep my case' });
  });

  it('refuses two ids that differ only in the case of a UUID as duplicates', async () => {
    const site = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    await expect(
      importDataFile(dynamoSiteDirectory(services.db, services.aws.tableName), {
        sites: [
          { id: site, name: 'A' },
          { id: site.toUpperCase(), name: 'B' },
        ],
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('$.sites[1].id') });
  });
});

describe('import --tenant', () => {
  it("grants the file's sites to the tenant, creating it, then extending it on the next import", async () => {
    const tenants = dynamoTenantStore(services.db, services.aws.tableName);
    const demo = await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE, { tenantId: 'acme' });
    expect(demo.tenantId).toBe('acme');
    expect((await tenants.get('acme'))?.site_ids).toEqual(demo.siteIds);

    const more = await importDataFile(
      dynamoSiteDirectory(services.db, services.aws.tableName),
      { sites: [{ id: 'acme-second', name: 'Second' }] },
      {
        tenants,
        tenantId: 'acme',
        now: Date.now(),
      },
    );
    expect(more).toEqual({ sites: 1, items: 0, siteIds: ['acme-second'], tenantId: 'acme' });
    expect((await tenants.get('acme'))?.site_ids).toEqual([...demo.siteIds, 'acme-second'].sort());
  });

  it('imports without touching any tenant when none is named', async () => {
    const before = await tenantItems();
    const summary = await importDataFile(dynamoSiteDirectory(services.db, services.aws.tableName), {
      sites: [{ id: 'untenanted', name: 'U' }],
    });
    expect(summary).toEqual({ sites: 1, items: 0, siteIds: ['untenanted'] });
    expect(await tenantItems()).toEqual(before);
  });

  it('refuses a malformed tenant id before writing anything', async () => {
    const tenants = dynamoTenantStore(services.db, services.aws.tableName);
    const before = await itemCount();
    await expect(
      importDataFile(
        dynamoSiteDirectory(services.db, services.aws.tableName),
        { sites: [{ id: 'never-written', name: 'N' }] },
        {
          tenants,
          tenantId: 'Acme Corp',
          now: Date.now(),
        },
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('Acme Corp') });
    expect(await itemCount()).toBe(before);
  });
});
