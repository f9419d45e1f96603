/** What a piece of code wrote to stdout and stderr while `run` ran (the streams are restored after). */
export async function captureOutput(run: () => unknown, options: { tty?: boolean } = {}): Promise<{ stdout: string; stderr: string }> {
  const written = { stdout: '', stderr: '' };
  const streams = { stdout: process.stdout, stderr: process.stderr } as const;
  const saved = (['stdout', 'stderr'] as const).map((name) => {
    const stream = streams[name];
    const original = { write: stream.write, isTTY: stream.isTTY };
    stream.write = (chunk: string | Uint8Array) => {
      written[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    };
    if (options.tty !== undefined) stream.isTTY = options.tty;
    return () => {
      stream.write = original.write;
      stream.isTTY = original.isTTY;
    };
  });
  try {
    await run();
  } finally {
    saved.forEach((restore) => restore());
  }
  return written;
}
