import { readFileSync } from 'node:fs';
import { markdownTable } from './table';

/**
 * `tsx test/bench/profile-summary.ts FILE.cpuprofile [BASELINE.cpuprofile|-] [TOP]`:
 * where a `node --cpu-prof` profile spent its time. Self time is grouped by
 * owner (our code by folder, dependencies by package, Node's own code, GC,
 * idle), once by the frame's own owner and once charging Node and native
 * frames to their nearest owning caller (JSON.stringify called by our code
 * counts as ours); our functions and the heaviest functions follow. With a
 * baseline (the same load on a floor, e.g. `BENCH_TARGETS=getPutSend`),
 * owners and functions are listed by what they cost beyond it.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, second, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary FILE.cpuprofile [BASELINE.cpuprofile|-] [TOP]');
const top = Number(topArg ?? 25);

/** Self time (µs) of each profile node. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const selfUs = new Map<number, number>();
  for (let index = 0; index < profile.samples.length; index++) {
    const delta = profile.timeDeltas[index + 1] ?? 0;
    selfUs.set(profile.samples[index]!, (selfUs.get(profile.samples[index]!) ?? 0) + delta);
  }
  return selfUs;
}

const REPO_FOLDERS = /\/(shared|functions|infra|test)\/(.*)$/;

/** Who owns a frame: `ours: shared/commands`, a package name, `node`, or a V8 pseudo-frame. */
export function ownerOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const ours = REPO_FOLDERS.exec(url);
  if (ours) return `ours: ${ours[1]}/${ours[2]!.split('/')[0]!.replace(/\.ts$/, '')}`;
  return url;
}

interface Summary {
  totalUs: number;
  busyUs: number;
  /** Self time by the frame's own owner. */
  byOwner: Map<string, number>;
  /** Self time by the nearest caller that is neither Node's own code nor native: JSON.stringify called by our code counts as ours. */
  byCaller: Map<string, number>;
  byFunction: Map<string, { owner: string; us: number }>;
}

const UNOWNED = new Set(['node internals', '(native)', '(program)', '(garbage collector)', '(root)']);

function summarize(path: string): Summary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const selfUs = selfTimes(profile);
  const byOwner = new Map<string, number>();
  const byCaller = new Map<string, number>();
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const byFunction = new Map<string, { owner: string; us: number }>();
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    const owner = ownerOf(node.callFrame);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    let caller: ProfileNode | undefined = node;
    while (caller && UNOWNED.has(ownerOf(caller.callFrame))) caller = parentOf.get(caller.id);
    const callerOwner = caller ? ownerOf(caller.callFrame) : owner;
    byCaller.set(callerOwner, (byCaller.get(callerOwner) ?? 0) + us);
    const url = node.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(shared|functions|infra|test)\//, '$1/');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${url}`;
    const entry = byFunction.get(key) ?? { owner, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
  }
  const totalUs = profile.endTime - profile.startTime;
  return { totalUs, busyUs: totalUs - (byOwner.get('(idle)') ?? 0), byOwner, byCaller, byFunction };
}

const pct = (us: number, of: number) => `${((us / of) * 100).toFixed(1)}%`;
const ms = (us: number) => (us / 1000).toFixed(0);
const isOurs = (owner: string) => owner.startsWith('ours:');
const sumOurs = (summary: Summary) => [...summary.byOwner].filter(([owner]) => isOurs(owner)).reduce((sum, [, us]) => sum + us, 0);

const a = summarize(file);
const b = second && second !== '-' ? summarize(second) : undefined;
const lines: string[] = [
  `${file}: ${ms(a.totalUs)} ms profiled, ${ms(a.busyUs)} ms busy (not idle); our code ${ms(sumOurs(a))} ms self = ${pct(sumOurs(a), a.busyUs)} of busy`,
];
if (b) {
  // Two runs of the same load (e.g. BENCH_TARGETS=accept, then getPutSend): what the first costs beyond the second.
  lines.push(`${second}: ${ms(b.totalUs)} ms profiled, ${ms(b.busyUs)} ms busy; difference in busy time ${ms(a.busyUs - b.busyUs)} ms`, '');
  for (const [title, pick] of [
    ['By owner of the frame:', (summary: Summary) => summary.byOwner],
    ['By nearest owning caller (Node and native frames charged to who called them):', (summary: Summary) => summary.byCaller],
  ] as const) {
    const owners = [...new Set([...pick(a).keys(), ...pick(b).keys()])].filter((owner) => owner !== '(idle)');
    const rows = owners
      .map((owner) => ({ owner, a: pick(a).get(owner) ?? 0, b: pick(b).get(owner) ?? 0 }))
      .sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b))
      .slice(0, top);
    lines.push(
      title,
      markdownTable(
        ['owner', 'ms', 'baseline ms', 'extra ms', 'share of extra'],
        rows.map((row) => [row.owner, ms(row.a), ms(row.b), ms(row.a - row.b), pct(row.a - row.b, a.busyUs - b.busyUs)]),
      ),
      '',
    );
  }
  const functions = [...new Set([...a.byFunction.keys(), ...b.byFunction.keys()])]
    .map((key) => ({
      key,
      owner: (a.byFunction.get(key) ?? b.byFunction.get(key))!.owner,
      a: a.byFunction.get(key)?.us ?? 0,
      b: b.byFunction.get(key)?.us ?? 0,
    }))
    .filter((row) => row.owner !== '(idle)')
    .sort((x, y) => y.a - y.b - (x.a - x.b))
    .slice(0, top);
  lines.push(
    'Functions by extra self time:',
    markdownTable(
      ['function', 'owner', 'self ms', 'baseline ms', 'extra ms'],
      functions.map((row) => [row.key, row.owner, ms(row.a), ms(row.b), ms(row.a - row.b)]),
    ),
  );
} else {
  for (const [title, map] of [
    ['By owner of the frame:', a.byOwner],
    ['By nearest owning caller (Node and native frames charged to who called them):', a.byCaller],
  ] as const) {
    const owners = [...map.entries()].filter(([owner]) => owner !== '(idle)').sort((x, y) => y[1] - x[1]);
    lines.push(
      '',
      title,
      markdownTable(
        ['owner', 'ms', '% of busy'],
        owners.slice(0, top).map(([owner, us]) => [owner, ms(us), pct(us, a.busyUs)]),
      ),
    );
  }
  const functions = [...a.byFunction.entries()].filter(([, entry]) => entry.owner !== '(idle)').sort((x, y) => y[1].us - x[1].us);
  lines.push(
    '',
    'Our functions by self time:',
    markdownTable(
      ['function', 'self ms', '% of busy'],
      functions
        .filter(([, entry]) => isOurs(entry.owner))
        .slice(0, top)
        .map(([key, entry]) => [key, ms(entry.us), pct(entry.us, a.busyUs)]),
    ),
    '',
    'All functions by self time:',
    markdownTable(
      ['function', 'owner', 'self ms', '% of busy'],
      functions.slice(0, top).map(([key, entry]) => [key, entry.owner, ms(entry.us), pct(entry.us, a.busyUs)]),
    ),
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
