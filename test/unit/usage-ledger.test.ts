import { usageItemsOf, usageShardOf, type UsageEntry } from '../../shared/usage/dynamo-ledger';
import { modelTokens, NO_USAGE } from '../../shared/usage/usage';

type Update = {
  Key: { pk: string; sk: string };
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
};

/** What an update adds, by counter name, and the labels it sets. */
function effectOf(update: Update): { adds: Record<string, unknown>; sets: Record<string, unknown> } {
  const adds: Record<string, unknown> = {};
  const sets: Record<string, unknown> = {};
  const [setPart, addPart = ''] = update.UpdateExpression.replace(/^SET /, '').split(' ADD ');
  for (const [, name, value] of setPart!.matchAll(/(#\w+) = (?:if_not_exists\(#\w+, )?(:\w+)/g))
    sets[update.ExpressionAttributeNames[name!]!] = update.ExpressionAttributeValues[value!];
  for (const [, name, value] of addPart.matchAll(/(#\w+) (:\w+)/g))
    adds[update.ExpressionAttributeNames[name!]!] = update.ExpressionAttributeValues[value!];
  return { adds, sets };
}

/** Two command ids whose tenant totals fall in the same shard. */
function sameShardIds(): [string, string] {
  const parent = 'parent-0';
  for (let n = 1; ; n++) if (usageShardOf(`child-${n}`) === usageShardOf(parent)) return [parent, `child-${n}`];
}

describe('usage ledger items of several entries in one write', () => {
  it('adds entries that reach the same item into one update: a phase’s usage on its parent’s terminal write', () => {
    const [parentId, childId] = sameShardIds();
    const at = Date.parse('2026-11-27T10:00:00Z');
    const entries: UsageEntry[] = [
      { target: { commandId: parentId, tenantId: 'acme', type: 'lead_follow_up', siteId: 'site-1' }, usage: NO_USAGE, at, ended: true },
      {
        target: { commandId: childId, tenantId: 'acme', type: 'copywriter', siteId: 'site-1', parentId },
        usage: modelTokens('gpt-test', 30, 7),
        at,
      },
    ];
    const updates = usageItemsOf('table', entries).map((item) => (item as unknown as { Update: Update }).Update);
    const keys = updates.map((update) => `${update.Key.pk}|${update.Key.sk}`);
    // A transaction names an item once: the parent's usage and the shared month shard appear once each.
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(
      [
        `USAGE#CMD#${parentId}|USAGE`,
        `USAGE#CMD#${childId}|USAGE`,
        `USAGE#acme|DAY#2026-11-27#lead_follow_up#site-1#${usageShardOf(parentId)}`,
        `USAGE#acme|DAY#2026-11-27#copywriter#site-1#${usageShardOf(childId)}`,
        `USAGE#acme|MONTH#2026-11#${usageShardOf(parentId)}`,
      ].sort(),
    );
    const at_ = (key: string) => effectOf(updates[keys.indexOf(key)]!);
    const tokens = { 'tokens_in#gpt-test': 30, 'tokens_out#gpt-test': 7 };
    // The parent's item: the phase's tokens, and its own labels (not only the tenant the phase's entry sets).
    expect(at_(`USAGE#CMD#${parentId}|USAGE`)).toEqual({
      adds: expect.objectContaining(tokens),
      sets: { tenant_id: 'acme', type: 'lead_follow_up', site_id: 'site-1', expires_at: expect.any(Number) },
    });
    expect(at_(`USAGE#acme|MONTH#2026-11#${usageShardOf(parentId)}`).adds).toEqual({ ...tokens, commands: 1 });
  });
});
