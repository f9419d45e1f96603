import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A running `npm start`, in a process group of its own (as in a terminal, where Ctrl-C reaches the whole group). */
export interface NpmStart {
  child: ChildProcess;
  url: string;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** Resolves once every process of the group has closed its output (npm, the shell and the service). */
  closed: Promise<void>;
  /** Sends a signal to the whole group, as Ctrl-C in a terminal does. */
  signalGroup(signal: NodeJS.Signals): void;
  /** SIGKILLs whatever is left of the group. */
  kill(): void;
}

/**
 * Runs `npm start` as a user does, with `env` on top of a clean environment
 * (no API_KEY, offline providers, quiet logs, the SDK's Node notice not
 * silenced), and resolves once its banner is printed.
 */
export async function npmStart(env: Record<string, string | undefined> = {}, timeoutMs = 30_000): Promise<NpmStart> {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      NODE_OPTIONS: '',
      LOG_LEVEL: 'ERROR',
      OPENAI_API_KEY: '',
      GOOGLE_CSE_API_KEY: '',
      BRAVE_API_KEY: '',
      PERPLEXITY_API_KEY: '',
      API_KEY: undefined,
      DATA_DIR: undefined,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const streamClosed = (stream: NodeJS.ReadableStream) => new Promise<void>((resolve) => stream.on('close', () => resolve()));
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const closed = Promise.all([streamClosed(child.stdout), streamClosed(child.stderr)]).then(() => undefined);
  let isClosed = false;
  void closed.then(() => (isClosed = true));
  const signalGroup = (signal: NodeJS.Signals) => {
    if (isClosed) return;
    try {
      process.kill(-child.pid!, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (!/running at http:\/\/\S+/.test(output)) {
    if (Date.now() > deadline || isClosed) {
      signalGroup('SIGKILL');
      throw new Error(`npm start did not come up:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    url: /running at (http:\/\/\S+)/.exec(output)![1]!,
    output: () => output,
    closed,
    signalGroup,
    kill: () => signalGroup('SIGKILL'),
  };
}

/** Resolves true if `promise` settles within `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return result;
}
