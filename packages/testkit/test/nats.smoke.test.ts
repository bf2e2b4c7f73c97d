import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import t from 'tap';
import { backend } from '../src/backends.ts';

t.setTimeout(600_000); // a cold machine builds the server first (go install)

t.test('NATS JetStream: a stream, a message id that drops the retry, a consumer that acks', async (t) => {
  const server = await backend('nats');
  t.teardown(() => server.stop());
  const nc = await connect({ servers: server.url });
  t.teardown(() => nc.close());
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: 'SMOKE_WINS', subjects: ['smoke.wins.>'] });
  t.teardown(() => jsm.streams.delete('SMOKE_WINS').then(() => undefined));

  const js = jetstream(nc);
  const first = await js.publish('smoke.wins.2026-11', JSON.stringify({ userId: 'alice', points: 1 }), {
    msgID: 'match-1',
  });
  const retry = await js.publish('smoke.wins.2026-11', JSON.stringify({ userId: 'alice', points: 1 }), {
    msgID: 'match-1',
  });
  const other = await js.publish('smoke.wins.2026-11', JSON.stringify({ userId: 'bob', points: 2 }), {
    msgID: 'match-2',
  });
  t.equal(first.duplicate, false);
  t.equal(retry.duplicate, true, 'the same Nats-Msg-Id is dropped');
  t.equal(retry.seq, first.seq, 'and answers with the original sequence');
  t.equal(other.seq, first.seq + 1);

  await jsm.consumers.add('SMOKE_WINS', { durable_name: 'ranker', ack_policy: AckPolicy.Explicit });
  const consumer = await js.consumers.get('SMOKE_WINS', 'ranker');
  const received: string[] = [];
  for (let i = 0; i < 2; i++) {
    const message = await consumer.next({ expires: 5_000 });
    if (message === null) break;
    received.push(message.json<{ userId: string }>().userId);
    t.ok(await message.ackAck(), 'the server confirmed the ack');
  }
  t.same(received, ['alice', 'bob'], 'each win once, in order');
  const info = await jsm.consumers.info('SMOKE_WINS', 'ranker');
  t.equal(info.num_ack_pending, 0, 'both acknowledged');
});
