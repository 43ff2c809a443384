/**
 * `npm run openapi`: writes the API's OpenAPI document, generated from the route table, to
 * docs/openapi.json, so that a change to the contract shows in review. tests/api/openapi.test.ts
 * fails when the document the server serves differs from the committed one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { openApiDocument } from '../server/app/openapi.ts';

export const OPENAPI_FILE = new URL('../docs/openapi.json', import.meta.url);

/** The document as the server serves it under /api (server/app/handlers/system.ts), as committed. */
export function openApiText(): string {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return `${JSON.stringify(openApiDocument({ apiPrefix: '/api', version }), null, 2)}\n`;
}

if (import.meta.main) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log(`Wrote ${OPENAPI_FILE.pathname}`);
}
