import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a fresh `node` importing a bundle spent compiling (millions of instructions), read from its callgrind profile. */
export interface CompileCounts {
  /**
   * The inclusive count of Node's ModuleWrap::New: V8 parsing each module of
   * the bundle and compiling its top level. It grows with the code read,
   * whether that code runs or not, and moves far less between counts than
   * the total. Running the modules is not read the same way: where a module
   * awaits at its top level (the tracing switch of
   * shared/platform/tracing.ts), the rest of the evaluation runs as
   * microtasks outside ModuleWrap::Evaluate.
   */
  modules?: number;
  /**
   * The inclusive count of Node's BuiltinLoader::LookupAndCompile: Node's own
   * built-in modules (`https`, `crypto`...) the import loaded, small when
   * Node's embedded code cache of them is used, their whole compile when a
   * V8 flag (Lambda's `--expose-gc`) makes it rejected.
   */
  builtins?: number;
}

/** The compile counts of a callgrind profile; each undefined when the node binary has no symbols. */
export async function compileCounts(profile: string): Promise<CompileCounts> {
  const { stdout } = await run('callgrind_annotate', ['--inclusive=yes', '--threshold=100', profile], { maxBuffer: 64 * 1024 * 1024 });
  return {
    modules: inclusiveCount(stdout, 'node::loader::ModuleWrap::New('),
    builtins: inclusiveCount(stdout, 'node::builtins::BuiltinLoader::LookupAndCompile('),
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
