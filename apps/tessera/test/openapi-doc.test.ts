import { readFileSync } from 'node:fs';
import t from 'tap';
import { openApiText, platformOpenApi } from '../src/openapi.ts';

const COMMITTED = new URL('../../../docs/openapi.json', import.meta.url);

t.test(
  'docs/openapi.json is the document the code generates (run `make openapi` after an API change)',
  async (t) => {
    const generated = openApiText(await platformOpenApi());
    const committed = readFileSync(COMMITTED, 'utf8');
    t.equal(
      committed,
      generated,
      'docs/openapi.json drifted from the routes: regenerate it with `make openapi`',
    );
  },
);
