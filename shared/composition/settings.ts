/**
 * A function's settings by name: `process.env` in Lambda; an explicit map
 * under the local runtime, which never changes `process.env`.
 */
export type Settings = Readonly<Record<string, string | undefined>>;
