import { randomBytes } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import t from 'tap';
import { backend } from '../src/backends.ts';

t.setTimeout(900_000); // a cold machine fetches Elasticsearch first (Maven), and it starts in ~20 s

t.test('Elasticsearch: index, refresh, search (mail search in distributed mode)', async (t) => {
  const server = await backend('elasticsearch');
  t.teardown(() => server.stop());
  const client = new Client({ node: server.url });
  t.teardown(() => client.close());
  // The integ-test distribution has no rest-root module, so no `GET /` (client.info()): the
  // version comes from the nodes API.
  const nodes = await client.nodes.info({ filter_path: 'nodes.*.version' });
  t.match(Object.values(nodes.nodes)[0]?.version, /^8\./, 'Elasticsearch 8');
  t.equal((await client.cluster.health()).status === 'red', false, 'the cluster is usable');
  // An index of its own, deleted afterwards: the server may be a shared one (ELASTICSEARCH_URL).
  const index = `smoke-mail-${randomBytes(4).toString('hex')}`;
  t.teardown(() => client.indices.delete({ index }, { ignore: [404] }));
  await client.indices.create({
    index,
    mappings: {
      properties: { mailbox: { type: 'keyword' }, subject: { type: 'text' }, body: { type: 'text' } },
    },
  });
  await client.index({
    index,
    id: '1',
    document: { mailbox: 'alice', subject: 'Quarterly report', body: 'numbers' },
  });
  await client.index({
    index,
    id: '2',
    document: { mailbox: 'alice', subject: 'Lunch', body: 'the report is late' },
  });
  await client.index({ index, id: '3', document: { mailbox: 'bob', subject: 'Report', body: 'not yours' } });
  await client.indices.refresh({ index });
  const found = await client.search<{ subject: string }>({
    index,
    query: {
      bool: {
        filter: [{ term: { mailbox: 'alice' } }],
        must: [{ multi_match: { query: 'report', fields: ['subject^2', 'body'] } }],
      },
    },
  });
  t.same(
    found.hits.hits.map((hit) => hit._id),
    ['1', '2'],
    "alice's two messages, the subject match first; bob's is filtered out",
  );
});
