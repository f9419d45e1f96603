import type { SiteDirectory } from '../../../shared/sites/directory';
import { valueSize } from '../../../shared/platform/item-size';
import type { CallRequirement, CallTask, SiteWorkOwner } from '../../../shared/sites/site-work';
import {
  CALL_WORK_LIMIT,
  CONTEXT_SUMMARY_BOUNDS,
  CONTEXT_SUMMARY_LIMIT,
  contextSummary,
  pendingTasks,
} from '../../../shared/stakeholder-coordination/context-summary';
import { OTHER, demoSite, inMemorySites, otherSite } from './fixtures';

describe('contextSummary', () => {
  it("adds, after the site's own, the tasks and requirements the tenant's calls made: bounded, labelled, for that tenant only", async () => {
    const sites = inMemorySites([demoSite()]);
    const asked: { owner: SiteWorkOwner; limit: number }[] = [];
    const task: CallTask = {
      id: 'c1-task-01',
      title: 'Send the revised plan',
      status: 'open',
      owner: 'Maya',
      due_date: 'Friday',
      priority: 'high',
      description: 'Maya will send the revised plan by Friday.',
      source_command_id: 'c1',
      created_at: '2026-11-26T10:00:00.000Z',
    };
    const requirement: CallRequirement = {
      id: 'c1-requirement-01',
      title: 'Contractor',
      status: 'pending_approval',
      estimated_cost: 4500,
      currency: 'USD',
      priority: 'medium',
      owner: null,
      needs_approval: true,
      description: 'A contractor for the guide.',
      source_command_id: 'c1',
      created_at: '2026-11-26T10:00:00.000Z',
    };
    const store = {
      listTasks: async (owner: SiteWorkOwner, limit: number) => (asked.push({ owner, limit }), [task]),
      listRequirements: async (owner: SiteWorkOwner, limit: number) => (asked.push({ owner, limit }), [requirement]),
    };
    const summary = await contextSummary(sites, (await sites.getSite(demoSite().id))!, { store, tenantId: 'tenant-a' });
    expect(asked).toEqual([
      { owner: { tenantId: 'tenant-a', siteId: demoSite().id }, limit: CALL_WORK_LIMIT },
      { owner: { tenantId: 'tenant-a', siteId: demoSite().id }, limit: CALL_WORK_LIMIT },
    ]);
    expect(summary.tasks).toHaveLength(3);
    expect(summary.tasks.slice(0, 2).every((item) => item.source === undefined)).toBe(true);
    expect(summary.tasks[2]).toEqual({
      id: 'c1-task-01',
      title: 'Send the revised plan',
      status: 'open',
      owner: 'Maya',
      due_date: 'Friday',
      description: 'Maya will send the revised plan by Friday.',
      source: 'call',
      source_command_id: 'c1',
    });
    expect(summary.requirements.at(-1)).toEqual({
      id: 'c1-requirement-01',
      title: 'Contractor',
      status: 'pending_approval',
      estimated_cost: '4500 USD',
      priority: 'medium',
      description: 'A contractor for the guide.',
      source: 'call',
      source_command_id: 'c1',
    });
    expect(pendingTasks(summary).map((item) => item.id)).toContain('c1-task-01');
  });

  it('carries the site’s tasks, requirements, campaigns, content and resource allocation, with the seed’s fields', async () => {
    const sites = inMemorySites([demoSite()]);
    const summary = await contextSummary(sites, (await sites.getSite(demoSite().id))!);
    expect(summary.tasks.map((task) => task.title).sort()).toEqual([
      'Refresh winter campaign landing page',
      'Set up abandoned-booking email flow',
    ]);
    expect(summary.tasks.find((task) => task.title.startsWith('Refresh'))).toEqual({
      id: 'f6a7b8c9-d0e1-4f2a-9b3c-5d6e7f8091a2',
      title: 'Refresh winter campaign landing page',
      status: 'in_progress',
      owner: 'Maya Chen',
      due_date: '2026-12-01',
      description: 'New hero image and pricing table.',
    });
    expect(summary.requirements).toEqual([
      {
        id: '18c9d0e1-f2a3-4b4c-9d5e-7f8091a2b3c4',
        title: 'Point-of-sale integration',
        status: 'pending_approval',
        estimated_cost: 8000,
        priority: 'high',
        description: "Two-way sync of rentals with the shop's POS.",
      },
    ]);
    expect(summary.campaigns).toEqual([
      {
        id: '29d0e1f2-a3b4-4c5d-8e6f-8091a2b3c4d5',
        title: 'Winter gear rental push',
        status: 'active',
        performance: { impressions: 120400, clicks: 3180, conversions: 142, spend: 4200 },
      },
    ]);
    expect(summary.content).toEqual([
      {
        id: '3ae1f2a3-b4c5-4d6e-9f70-91a2b3c4d5e6',
        title: 'Guide: planning a group ski weekend',
        status: 'draft',
        description: 'Long-form guide for the blog.',
        target_completion: '2026-12-05',
      },
    ]);
    expect(summary.resource_allocation).toEqual({
      budget: 25000,
      currency: 'USD',
      distribution: { paid_search: 0.4, social: 0.3, content: 0.2, events: 0.1 },
    });
  });

  it('gives empty lists and an empty allocation for a site without any, never made-up samples', async () => {
    const sites = inMemorySites([otherSite()]);
    expect(await contextSummary(sites, (await sites.getSite(OTHER.siteId))!)).toEqual({
      tasks: [],
      requirements: [],
      campaigns: [],
      content: [],
      resource_allocation: {},
    });
  });

  it('reads each collection with one bounded query', async () => {
    const asked: [string, number][] = [];
    const inner = inMemorySites([demoSite()]);
    const sites: SiteDirectory = {
      ...inner,
      listItems: async (siteId, kind, limit) => (asked.push([kind, limit]), inner.listItems(siteId, kind, limit)),
    };
    await contextSummary(sites, (await sites.getSite(demoSite().id))!);
    expect(asked.sort()).toEqual([
      ['campaigns', CONTEXT_SUMMARY_LIMIT],
      ['content', CONTEXT_SUMMARY_LIMIT],
      ['requirements', CONTEXT_SUMMARY_LIMIT],
      ['tasks', CONTEXT_SUMMARY_LIMIT],
    ]);
  });
});

describe('the bounds of a context summary', () => {
  it("cuts the site's long texts and records, and drops the last items of the largest collection past its budget", async () => {
    const site = demoSite();
    const long = (length: number, index: number) => `${index} ${'語'.repeat(length)}`;
    site.tasks = Array.from({ length: 50 }, (_, index) => ({
      id: `task-${String(index).padStart(2, '0')}`,
      title: long(5_000, index),
      owner: long(5_000, index),
      description: long(10_000, index),
    }));
    site.campaigns = [{ id: 'campaign-1', title: 'Winter push', performance: { clicks: 10, notes: long(10_000, 0), later: 'left out' } }];
    site.resource_allocation = { budget: 25_000, notes: long(10_000, 0) };
    const sites = inMemorySites([site]);

    const summary = await contextSummary(sites, (await sites.getSite(site.id))!);

    expect(valueSize(summary)).toBeLessThanOrEqual(CONTEXT_SUMMARY_BOUNDS.maxBytes);
    expect(summary.tasks.length).toBeGreaterThan(0);
    expect(summary.tasks.length).toBeLessThan(50);
    expect(summary.tasks.map((task) => task.id)).toEqual(
      Array.from({ length: summary.tasks.length }, (_, index) => `task-${String(index).padStart(2, '0')}`),
    );
    expect(summary.tasks[0]).toMatchObject({
      title: long(5_000, 0).slice(0, CONTEXT_SUMMARY_BOUNDS.titleCharacters),
      description: long(10_000, 0).slice(0, CONTEXT_SUMMARY_BOUNDS.textCharacters),
    });
    expect(summary.campaigns).toEqual([expect.objectContaining({ title: 'Winter push', performance: { clicks: 10 } })]);
    expect(summary.resource_allocation).toEqual({ budget: 25_000 });
  });
});

describe('pendingTasks', () => {
  it('keeps every task not finished', () => {
    const task = (title: string, status: string | null) => ({ id: title, title, status, owner: null, due_date: null, description: null });
    const tasks = [
      task('a', 'pending'),
      task('b', 'in_progress'),
      task('c', 'Done'),
      task('d', 'completed'),
      task('e', null),
      task('f', 'cancelled'),
    ];
    expect(pendingTasks({ tasks }).map((item) => item.title)).toEqual(['a', 'b', 'e']);
  });
});
