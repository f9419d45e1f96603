/**
 * How Lambda's Node.js runtime starts a sandbox, for the bench parts that
 * start a function as it would: the runtime's bootstrap runs `node` with
 * the flags below, and its runtime interface client
 * (aws-lambda-nodejs-runtime-interface-client, src/) has loaded the
 * built-in modules below before it imports the function's handler.
 *
 * The flags matter to a cold start beyond the heap: `--expose-gc` is a V8
 * flag, and Node's embedded code cache of its own built-in modules is keyed
 * on V8's flag hash, so in a sandbox started this way every built-in module
 * the function loads (`https`, `crypto`, `stream`...) is compiled from
 * source: importing `https`, `crypto` and `stream` counted 24 M
 * instructions in a bare Node 20.20 and 94 M with `--expose-gc` alone
 * (the counts are in docs/performance.md).
 */

/**
 * The Node.js flags Lambda's runtime starts a sandbox of `memoryMb` with: a
 * tenth of the memory for the young generation (half of it each semi-space),
 * the rest for the old one.
 */
export function lambdaNodeFlags(memoryMb: number): string[] {
  const newSpace = Math.floor(memoryMb / 10);
  return [
    '--expose-gc',
    '--max-http-header-size=81920',
    `--max-semi-space-size=${Math.floor(newSpace / 2)}`,
    `--max-old-space-size=${memoryMb - newSpace}`,
  ];
}

/** The built-in modules Lambda's runtime interface client has loaded when it imports the handler. */
export const LAMBDA_RUNTIME_BUILTINS = ['assert', 'fs', 'http', 'net', 'path', 'util'] as const;

/** A line of a child's ESM source that loads LAMBDA_RUNTIME_BUILTINS, as the runtime has before the handler. */
export const LOAD_RUNTIME_BUILTINS = `for (const name of ${JSON.stringify(LAMBDA_RUNTIME_BUILTINS)}) process.getBuiltinModule(name);`;
