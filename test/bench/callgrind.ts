import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Where a cold start's instructions went, in millions, read from a callgrind
 * profile of a fresh `node` importing a bundle: `compile`, inside Node's
 * ModuleWrap::New (V8 parsing each module of the bundle and compiling its
 * top level: it grows with the code read, whether it runs or not), and
 * `evaluate`, inside ModuleWrap::Evaluate (running the modules' top level,
 * the function's composition included, with the functions it calls compiled
 * on their first call). Undefined when the node binary has no symbols.
 */
export interface ModuleCosts {
  compile?: number;
  evaluate?: number;
}

/** The inclusive counts of Node's module creation and evaluation in `profile`, via valgrind's callgrind_annotate. */
export async function moduleCosts(profile: string): Promise<ModuleCosts> {
  const { stdout } = await run('callgrind_annotate', ['--inclusive=yes', '--threshold=100', profile], { maxBuffer: 64 * 1024 * 1024 });
  return {
    compile: inclusiveCount(stdout, 'node::loader::ModuleWrap::New('),
    evaluate: inclusiveCount(stdout, 'node::loader::ModuleWrap::Evaluate('),
  };
}

/** The count (millions) of the first line of callgrind_annotate's listing naming `symbol`, if any. */
export function inclusiveCount(listing: string, symbol: string): number | undefined {
  for (const line of listing.split('\n')) {
    if (!line.includes(symbol)) continue;
    const count = /^\s*([\d,]+)\s/.exec(line);
    if (count) return Number(count[1]!.replaceAll(',', '')) / 1e6;
  }
  return undefined;
}
