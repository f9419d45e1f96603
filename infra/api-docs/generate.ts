import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument, serializeDocument, type OpenApiDocument } from './document';

/** The repository root. */
const ROOT = resolve(import.meta.dirname, '..', '..');

/** The committed OpenAPI document, relative to the repository root. */
export const OPENAPI_JSON = join('docs', 'openapi.json');
/** The committed types of the typed client (openapi-typescript), relative to the repository root. */
export const CLIENT_TYPES = join('docs', 'switchboard-api.d.ts');

/** One generated file: its path (relative to the repository root) and content. */
export interface GeneratedFile {
  path: string;
  content: string;
}

/** The TypeScript types of a document, as `openapi-typescript` writes them (for `openapi-fetch`). */
export async function clientTypesOf(document: OpenApiDocument): Promise<string> {
  // A request field with a default may be left out: the document does not list it as required, and the client's type must not either.
  const ast = await openapiTS(document as unknown as OpenAPI3, { silent: true, defaultNonNullable: false });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

/** What `npm run docs` writes: docs/openapi.json, and the typed client's types generated from it. */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const document = buildOpenApiDocument();
  return [
    { path: OPENAPI_JSON, content: serializeDocument(document) },
    { path: CLIENT_TYPES, content: await clientTypesOf(document) },
  ];
}

/** The generated files whose committed copy differs from what the sources give now (missing ones included). */
export async function staleFiles(files: readonly GeneratedFile[]): Promise<string[]> {
  const stale: string[] = [];
  for (const file of files) {
    const committed = await readFile(join(ROOT, file.path), 'utf8').catch(() => undefined);
    if (committed !== file.content) stale.push(file.path);
  }
  return stale;
}

/** Absolute path of a generated file. */
export function absolutePath(file: GeneratedFile): string {
  return join(ROOT, file.path);
}
