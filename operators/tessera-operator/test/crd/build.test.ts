import { Type } from '@sinclair/typebox';
import t from 'tap';
import { toCustomResourceDefinition, toKubeconformSchema } from '../../src/crd/build.ts';
import { defineKind } from '../../src/crd/define.ts';
import { leaderboardKind } from '../../src/leaderboard/types.ts';

t.test('a kind with a scale subresource (as TradingSymbol will have) gets it beside status', async (t) => {
  const kind = defineKind({
    kind: 'Sample',
    plural: 'samples',
    singular: 'sample',
    description: 'a test kind',
    spec: Type.Object({ replicas: Type.Integer({ minimum: 1 }) }),
    status: Type.Object({ replicas: Type.Optional(Type.Integer()) }),
    printerColumns: [],
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
  });
  const crd = toCustomResourceDefinition(kind);
  const [version] = crd.spec.versions as { subresources: unknown }[];
  t.same(version?.subresources, {
    status: {},
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
  });
  t.equal(crd.metadata.name, 'samples.tessera.dev');
});

t.test('the Leaderboard CRD: printer columns, status subresource, a structural schema', async (t) => {
  const crd = toCustomResourceDefinition(leaderboardKind);
  const [version] = crd.spec.versions as {
    additionalPrinterColumns: { name: string }[];
    subresources: unknown;
  }[];
  t.same(
    version?.additionalPrinterColumns.map((c) => c.name),
    ['Period', 'Players', 'Ready', 'Archived', 'Age'],
  );
  t.same(version?.subresources, { status: {} });
  const text = JSON.stringify(crd);
  t.notMatch(text, /patternProperties|"const"|"\$id"/, 'nothing a structural schema refuses');
});

t.test('the kubeconform schema is the same object schema', async (t) => {
  const schema = toKubeconformSchema(leaderboardKind);
  t.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  t.match(schema, { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } });
});
