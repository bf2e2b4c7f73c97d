import { readFileSync } from 'node:fs';
import t from 'tap';
import { crdFiles } from '../../src/crd/files.ts';

const ROOT = new URL('../../../../', import.meta.url);

t.test(
  'the committed CRD files are what the schemas generate (run `make crds` after a change)',
  async (t) => {
    const files = crdFiles();
    t.ok(files.size >= 2, "crds/ and the chart's crds/");
    for (const [path, text] of files) {
      let committed = '';
      try {
        committed = readFileSync(new URL(path, ROOT), 'utf8');
      } catch {
        // missing: the comparison below fails and names the file
      }
      t.equal(committed, text, `${path} is up to date`);
    }
  },
);
