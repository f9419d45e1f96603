import * as z from 'zod/mini';
import type { TenantLimits } from '../../../shared/access/limits/tenant-limits';
import { readFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSRecord } from 'aws-lambda';
import type { JobQueueId } from '../../../shared/catalogue/job-types';
import { startCommand } from '../../../shared/commands/start';
import type { IdempotencyStore } from '../../../shared/commands/idempotency';
import type { JobEnvelope } from '../../../shared/commands/job';
import type { JobQueue } from '../../../shared/commands/queue';
import type { StoredCommand as CommandRecord } from '../../../shared/commands/record';
import { CommandGoneError, type CommandStore } from '../../../shared/commands/store';
import { processJobRecord, type JobDefinition, type WorkerDependencies } from '../../../shared/commands/worker';
import { copywriterJob, type CopywriterPhaseDependencies } from '../../../shared/lead-follow-up/copywriter-phase';
import type { FollowUpStore, StoredFollowUp } from '../../../shared/lead-follow-up/follow-up-store';
import type { LeadHistory, LeadHistoryEntry, LeadHistoryOwner } from '../../../shared/lead-follow-up/history';
import { withinWindow } from '../../../shared/lead-follow-up/writing-limits';
import { salesJob, type SalesPhaseDependencies } from '../../../shared/lead-follow-up/sales-phase';
import { parseLeadFollowUpRequest } from '../../../shared/lead-follow-up/schema';
import type { JsonCompletion, JsonCompletionRequest, LlmClient } from '../../../shared/providers/llm/port';
import type { CollectionKind, SiteCollections, SiteDirectory } from '../../../shared/sites/directory';
import type { DataFile, SiteInput } from '../../../shared/sites/schema';

/** In-memory stand-ins for the ports the lead follow-up uses: plain objects, no module mocks. */

export const DEMO = {
  siteId: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c',
  leadId: 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80',
  emailOnlyLeadId: 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091',
  salesAgentId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  copywriterId: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
  cmoId: 'c3d4e5f6-a7b8-4c9d-8e0f-2a3b4c5d6e7f',
  userId: '0c9e8d7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
} as const;

export function demoData(): DataFile {
  return JSON.parse(readFileSync(new URL('../../../infra/local/demo-data.json', import.meta.url), 'utf8')) as DataFile;
}

export function demoSite(): SiteInput {
  return demoData().sites[0]!;
}

/** A SiteDirectory over data-file sites; items are found only under their own site, as in the table. */
export function inMemorySites(sites: readonly SiteInput[]): SiteDirectory {
  const byId = new Map(sites.map((site) => [site.id, site]));
  return {
    async getSite(siteId) {
      const site = byId.get(siteId);
      if (!site) return undefined;
      const { users: _u, visitors: _v, agents: _a, leads: _l, tasks: _t, requirements: _r, campaigns: _c, content: _n, ...own } = site;
      return own;
    },
    async getItem<K extends CollectionKind>(siteId: string, kind: K, id: string) {
      const items = (byId.get(siteId)?.[kind] ?? []) as SiteCollections[K][];
      return structuredClone(items.find((item) => item.id === id));
    },
    async listItems<K extends CollectionKind>(siteId: string, kind: K, limit: number) {
      const items = (byId.get(siteId)?.[kind] ?? []) as SiteCollections[K][];
      return structuredClone([...items].sort((a, b) => a.id.localeCompare(b.id)).slice(0, limit));
    },
  };
}

/** A CommandStore with the same conditional rules as the DynamoDB one. */
export function inMemoryCommands(): CommandStore & { records: Map<string, CommandRecord> } {
  const records = new Map<string, CommandRecord>();
  const erased = new Set<string>();
  const iso = (ms: number) => new Date(ms).toISOString();
  const update = (id: string, patch: Partial<CommandRecord>): boolean => {
    const current = records.get(id);
    if (!current || current.status !== 'in_progress') return false;
    const next = { ...current, ...patch } as CommandRecord;
    for (const [key, value] of Object.entries(patch)) if (value === undefined) delete (next as unknown as Record<string, unknown>)[key];
    records.set(id, structuredClone(next));
    return true;
  };
  return {
    records,
    async create(command, options = {}) {
      if (records.has(command.id)) return false;
      if (command.parent_id && !records.has(command.parent_id)) throw new CommandGoneError(command.parent_id);
      if (
        command.parent_id &&
        options.parentPatch &&
        !update(command.parent_id, { ...options.parentPatch, updated_at: command.created_at })
      )
        throw new CommandGoneError(command.parent_id);
      records.set(command.id, structuredClone(command));
      return true;
    },
    async get(id) {
      const record = records.get(id);
      return record ? structuredClone(record) : undefined;
    },
    async claim(id, expected, now, leaseUntil) {
      const current = records.get(id);
      if (!current) return erased.has(id) ? { kind: 'erased' } : { kind: 'missing' };
      if (current.tenant_id !== expected.tenantId || current.type !== expected.type)
        return { kind: 'mismatch', command: structuredClone(current) };
      if (current.status !== 'in_progress') return { kind: 'terminal', command: structuredClone(current) };
      if (current.lease_until !== undefined && current.lease_until >= now) return { kind: 'leased', command: structuredClone(current) };
      update(id, { lease_until: leaseUntil, attempts: current.attempts + 1, updated_at: iso(now) });
      return { kind: 'claimed', command: structuredClone(records.get(id)!) };
    },
    async release(id) {
      update(id, { lease_until: undefined });
    },
    async recordProgress(id, patch, now) {
      return update(id, { ...patch, updated_at: iso(now) });
    },
    async usageOf() {
      return {};
    },
    async statusOf(id) {
      return records.get(id)?.status;
    },
    async complete({ id }, result, now, patch = {}) {
      return update(id, { ...patch, progress: undefined, status: 'completed', result, updated_at: iso(now), lease_until: undefined });
    },
    async fail({ id }, error, now, patch = {}) {
      return update(id, { ...patch, progress: undefined, status: 'failed', error, updated_at: iso(now), lease_until: undefined });
    },
    async listInProgress(createdBefore, limit) {
      return [...records.values()]
        .filter((record) => record.status === 'in_progress' && record.created_at < createdBefore)
        .sort((a, b) => a.created_at.localeCompare(b.created_at))
        .slice(0, limit)
        .map((record) => structuredClone(record));
    },
    async wasErased(id) {
      return erased.has(id);
    },
    async erase(id, tenantId, unchangedSince) {
      const current = records.get(id);
      if (current?.tenant_id !== tenantId || (unchangedSince !== undefined && current.updated_at !== unchangedSince)) return false;
      erased.add(id);
      return records.delete(id);
    },
  };
}

/** A tenant directory from tenant id → site ids. */
export function inMemoryTenants(
  grants: Record<string, string[]>,
  limits: Record<string, TenantLimits> = {},
): WorkerDependencies['tenants'] {
  return {
    async get(tenantId) {
      const siteIds = grants[tenantId];
      const own = limits[tenantId];
      return siteIds
        ? {
            tenant_id: tenantId,
            site_ids: siteIds,
            ...(own ? { limits: own } : {}),
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
          }
        : undefined;
    },
  };
}

/** A JobQueue that keeps what was sent. */
export function recordingQueue(): JobQueue & {
  sent: { queue: JobQueueId; job: JobEnvelope }[];
  resent: { queue: JobQueueId; body: string; delaySeconds: number; attempt: number }[];
} {
  const sent: { queue: JobQueueId; job: JobEnvelope }[] = [];
  const resent: { queue: JobQueueId; body: string; delaySeconds: number; attempt: number }[] = [];
  return {
    sent,
    resent,
    async send(queue, job) {
      sent.push({ queue, job: structuredClone(job) });
    },
    async sendToDeadLetter() {
      throw new Error('not expected in these tests');
    },
    async sendAgain(queue, body, delaySeconds, attempt) {
      resent.push({ queue, body, delaySeconds, attempt });
    },
  };
}

/** A FollowUpStore with the DynamoDB store's put-if-absent rule; it records whether each save was a first one (firstSaveItems). */
export function inMemoryFollowUps(): FollowUpStore & { items: Map<string, StoredFollowUp>; saves: { firstSave: boolean }[] } {
  const items = new Map<string, StoredFollowUp>();
  const saves: { firstSave: boolean }[] = [];
  return {
    items,
    saves,
    async saveSequence(sequence) {
      saves.push({ firstSave: false });
      let created = 0;
      for (const item of sequence) {
        if (items.has(item.id)) continue;
        items.set(item.id, structuredClone(item));
        created += 1;
      }
      return { created, existing: sequence.length - created };
    },
    firstSaveItems(sequence) {
      // In memory there is no completion transaction to join: the items are kept at once, as that transaction would keep them.
      saves.push({ firstSave: true });
      if (sequence.some((item) => items.has(item.id))) throw new Error('A first save found items already saved');
      for (const item of sequence) items.set(item.id, structuredClone(item));
      return [];
    },
    async listDueFollowUps(before, limit) {
      return [...items.values()]
        .filter((item) => item.status === 'scheduled' && item.scheduled_for <= before)
        .sort((a, b) => a.scheduled_for.localeCompare(b.scheduled_for))
        .slice(0, limit);
    },
  };
}

/** A LeadHistory in memory, with the table store's rules: once per event id, per tenant, the newest within the window. */
export function inMemoryHistory(): LeadHistory & { entries: Map<string, LeadHistoryEntry & { expires_at: number }> } {
  const entries = new Map<string, LeadHistoryEntry & { expires_at: number }>();
  const prefix = (owner: LeadHistoryOwner) => `${owner.siteId}|${owner.leadId}|${owner.tenantId}|`;
  const ofOwner = (owner: LeadHistoryOwner) => [...entries.entries()].filter(([key]) => key.startsWith(prefix(owner)));
  return {
    entries,
    async record(owner, entry, expiresAt) {
      const key = `${prefix(owner)}${entry.date}|${entry.event_id}`;
      if (entries.has(key)) return 'already_recorded';
      entries.set(key, { ...entry, expires_at: expiresAt });
      return 'recorded';
    },
    async window(owner, now) {
      const live = ofOwner(owner)
        .filter(([, entry]) => entry.expires_at > Math.floor(now / 1000))
        .sort(([a], [b]) => b.localeCompare(a))
        .map(([, { expires_at: _expires, ...entry }]) => entry);
      return withinWindow(live);
    },
    async erase(owner) {
      const mine = ofOwner(owner);
      for (const [key] of mine) entries.delete(key);
      return mine.length;
    },
  };
}

/** One scripted answer of the scripted LLM: a value (or one computed when asked), the offline writer's answer, or a thrown error. */
export type ScriptedAnswer = { value: unknown } | { answer: () => unknown } | { offline: true } | { error: Error };

/**
 * An LlmClient that answers from a script, in order, and records every
 * request. It checks values against the request's schema like the real
 * adapters do.
 */
export function scriptedLlm(script: ScriptedAnswer[], generatedBy: 'openai' | 'offline' = 'openai') {
  const requests: JsonCompletionRequest<unknown>[] = [];
  const client: LlmClient = {
    generatedBy,
    model: 'scripted-model',
    async completeJson<T>(request: JsonCompletionRequest<T>): Promise<JsonCompletion<T>> {
      requests.push(request);
      const next = script.shift();
      if (!next) throw new Error('scriptedLlm: no answer left in the script');
      if ('error' in next) throw next.error;
      const raw = 'offline' in next ? request.offline() : 'answer' in next ? next.answer() : next.value;
      return { value: z.parse(request.schema, raw), generatedBy, model: 'scripted-model' };
    },
  };
  return { client, requests };
}

export const fixedClock = (iso = '2026-11-20T09:00:00.000Z') => {
  let now = Date.parse(iso);
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

export function newCommand(overrides: Partial<CommandRecord> & Pick<CommandRecord, 'id' | 'request'>): CommandRecord {
  return {
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: 'tenant-a',
    site_id: DEMO.siteId,
    created_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    attempts: 0,
    ...overrides,
  };
}

/** An IdempotencyStore with the DynamoDB store's first-wins rule. */
export function inMemoryIdempotency(): IdempotencyStore {
  const claims = new Map<string, { bodyHash: string; commandId: string }>();
  return {
    async claim(claim) {
      const key = `${claim.tenantId}#${claim.scope}#${claim.key}`;
      const existing = claims.get(key);
      if (!existing) {
        claims.set(key, { bodyHash: claim.bodyHash, commandId: claim.commandId });
        return { kind: 'first' };
      }
      if (existing.bodyHash !== claim.bodyHash) throw new Error('IDEMPOTENCY_CONFLICT');
      return { kind: 'replay', commandId: existing.commandId };
    },
    async release(claim) {
      const key = `${claim.tenantId}#${claim.scope}#${claim.key}`;
      if (claims.get(key)?.commandId === claim.commandId) claims.delete(key);
    },
  };
}

/**
 * Both phases wired to in-memory ports, driven through the real job runner
 * (`processJobRecord`), as the SQS event source would.
 */
export function leadFollowUpHarness(options: { script?: ScriptedAnswer[]; sites?: SiteInput[]; llm?: LlmClient } = {}) {
  const commands = inMemoryCommands();
  const queue = recordingQueue();
  const deadLetters: { queue: JobQueueId; body: string; reason: string }[] = [];
  queue.sendToDeadLetter = async (id, body, reason) => {
    deadLetters.push({ queue: id, body, reason });
  };
  const followUps = inMemoryFollowUps();
  const history = inMemoryHistory();
  const sites = inMemorySites(options.sites ?? [demoSite()]);
  const scripted = scriptedLlm(options.script ?? []);
  const llm = options.llm ?? scripted.client;
  const clock = fixedClock();
  const worker: WorkerDependencies = {
    commands,
    idempotency: inMemoryIdempotency(),
    tenants: inMemoryTenants(
      Object.fromEntries(['tenant-a', 'producer-tenant'].map((tenant) => [tenant, (options.sites ?? [demoSite()]).map((site) => site.id)])),
    ),
    queue,
    clock,
    logger: new Logger({ logLevel: 'SILENT' }),
    leaseMs: 60_000,
    maxReceiveCount: 3,
    retryDelaysSeconds: [0],
  };
  const salesDeps: SalesPhaseDependencies = {
    commands,
    idempotency: worker.idempotency,
    queue,
    sites,
    followUps,
    history,
    clock,
    llm: async () => llm,
    defaultOutput: 'channel_messages',
  };
  const copywriterDeps: CopywriterPhaseDependencies = { commands, sites, clock, llm: async () => llm, maxReceiveCount: 3 };
  const sales = salesJob(salesDeps);
  const copywriter = copywriterJob(copywriterDeps);
  let messages = 0;
  const deliver = async <R, P>(definition: JobDefinition<R, P>, job: unknown, receiveCount = 1) => {
    messages += 1;
    const record = {
      messageId: `message-${messages}`,
      body: JSON.stringify(job),
      attributes: { ApproximateReceiveCount: String(receiveCount) },
    };
    await processJobRecord(definition, worker, record as unknown as SQSRecord);
  };
  return {
    commands,
    queue,
    deadLetters,
    followUps,
    sites,
    llmRequests: scripted.requests,
    clock,
    worker,
    salesDeps,
    history,
    copywriterDeps,
    /** Delivers a sales job; the lease is given back first, as a crashed attempt's lease would have run out. */
    deliverSales: (job: unknown, receiveCount = 1) => deliver(sales, job, receiveCount),
    deliverCopywriter: (job: unknown, receiveCount = 1) => deliver(copywriter, job, receiveCount),
    /** Accepts a request the way the API does: the command is written, its sales job returned. */
    async accept(fields: Record<string, unknown>, tenantId = 'tenant-a') {
      const request = parseLeadFollowUpRequest({ siteId: DEMO.siteId, leadId: DEMO.leadId, ...fields }, 'channel_messages');
      const outcome = await startCommand(
        { commands, idempotency: worker.idempotency, queue, clock },
        { type: 'lead_follow_up', tenantId, siteId: request.siteId, request },
      );
      const sent = queue.sent.pop()!;
      return { command: outcome.command, job: sent.job };
    },
  };
}
