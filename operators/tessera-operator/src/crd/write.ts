/** `make crds`: writes the generated CRD files (crds/, the chart's crds/) from the kinds' schemas. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crdFiles } from './files.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

for (const [path, text] of crdFiles()) {
  mkdirSync(dirname(join(ROOT, path)), { recursive: true });
  writeFileSync(join(ROOT, path), text);
  console.log(`wrote ${path}`);
}
