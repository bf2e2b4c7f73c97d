/** The chart's values for the Leaderboard allow what the CRD allows: the enums and bounds agree. */
import { readFileSync } from 'node:fs';
import { KINDS } from '@tessera/operator';
import t from 'tap';
import { CHART } from './helpers/helm.ts';

interface Schema {
  properties: Record<string, Schema>;
  enum?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

t.test("values.schema.json's leaderboard section agrees with the Leaderboard CRD", async (t) => {
  const values = JSON.parse(readFileSync(`${CHART}/values.schema.json`, 'utf8')) as Schema;
  const chart = values.properties.leaderboard!.properties;
  const kind = KINDS.find((k) => k.kind === 'Leaderboard');
  const crd = JSON.parse(JSON.stringify(kind?.spec)) as Schema;
  for (const field of ['period', 'tieBreak']) t.same(chart[field]?.enum, crd.properties[field]?.enum, field);
  t.equal(chart.timezone?.pattern, crd.properties.timezone?.pattern, 'timezone');
  t.equal(chart.retention?.minimum, crd.properties.retention?.minimum, 'retention minimum');
  t.equal(chart.retention?.maximum, crd.properties.retention?.maximum, 'retention maximum');
  const replicas = crd.properties.api!.properties.replicas!;
  t.equal(chart.api?.properties.replicas?.maximum, replicas.maximum, 'api.replicas maximum');
});
