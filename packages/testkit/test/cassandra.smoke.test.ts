import { randomBytes } from 'node:crypto';
import cassandra from 'cassandra-driver';
import t from 'tap';
import { backend } from '../src/backends.ts';

t.setTimeout(900_000); // a cold machine fetches Cassandra first (Maven), and it starts in ~30 s

t.test('Cassandra: a keyspace, a table, a write and a read (mail storage in distributed mode)', async (t) => {
  const server = await backend('cassandra');
  t.teardown(() => server.stop());
  // cassandra://host:port/datacenter
  const url = new URL(server.url);
  const client = new cassandra.Client({
    contactPoints: [url.host],
    localDataCenter: decodeURIComponent(url.pathname.slice(1)),
  });
  await client.connect();
  t.teardown(() => client.shutdown());
  // A keyspace of its own, dropped afterwards: the server may be a shared one (CASSANDRA_URL).
  const keyspace = `smoke_${randomBytes(4).toString('hex')}`;
  await client.execute(
    `CREATE KEYSPACE ${keyspace} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
  );
  t.teardown(() => client.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`));
  await client.execute(
    `CREATE TABLE ${keyspace}.messages (mailbox text, id timeuuid, subject text, size int, PRIMARY KEY (mailbox, id)) WITH CLUSTERING ORDER BY (id DESC)`,
  );
  const insert = `INSERT INTO ${keyspace}.messages (mailbox, id, subject, size) VALUES (?, ?, ?, ?)`;
  const first = cassandra.types.TimeUuid.now();
  const second = cassandra.types.TimeUuid.now();
  await client.execute(insert, ['alice', first, 'hello', 120], { prepare: true });
  await client.execute(insert, ['alice', second, 'again', 64], { prepare: true });
  const result = await client.execute(
    `SELECT id, subject, size FROM ${keyspace}.messages WHERE mailbox = ?`,
    ['alice'],
    { prepare: true },
  );
  t.same(
    result.rows.map((row) => [String(row.get('id')), row.get('subject'), row.get('size')]),
    [
      [second.toString(), 'again', 64],
      [first.toString(), 'hello', 120],
    ],
    'newest first, as the clustering order says',
  );
  const version = await client.execute('SELECT release_version FROM system.local');
  t.match(String(version.first().get('release_version')), /^5\.0\./, 'Cassandra 5.0');
});
