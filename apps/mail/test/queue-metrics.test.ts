import t from 'tap';
import { startApi } from './helpers/http.ts';

t.test('/metrics shows each mail queue with its size and the age of its oldest job', async (t) => {
  const api = await startApi(t);
  await api.call('POST', '/v1/messages', {
    user: 'alice',
    body: { to: [{ email: 'x@remote.test' }, { email: 'y@remote.test' }], subject: 's', body: 'b' },
  });
  api.mail.clock.advance(90_000);
  const text = (await api.call('GET', '/metrics')).body;
  t.match(text, /^mail_queue_size\{topic="mail\.outbound"\} 2$/m);
  t.match(text, /^mail_queue_oldest_age_seconds\{topic="mail\.outbound"\} 90$/m);
  t.match(text, /^mail_queue_size\{topic="mail\.inbound"\} 0$/m);
  t.match(text, /^mail_queue_oldest_age_seconds\{topic="mail\.errors"\} 0$/m);
});
