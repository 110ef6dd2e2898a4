import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { previewOpenApiDocument } from './preview';

/** Writes docs/openapi.json (run with `npm run openapi` after changing an endpoint). */
async function main(): Promise<void> {
  const doc = await previewOpenApiDocument();
  const file = join(process.cwd(), 'docs', 'openapi.json');
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  process.stdout.write(`wrote ${file} (${Object.keys(doc.paths).length} paths)\n`);
}

void main();
