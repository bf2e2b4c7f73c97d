import t from 'tap';
import { deliveredHeaders, envelopeOf } from '../../src/core/envelope.ts';

const a = (email: string) => ({ name: '', email });

t.test('the envelope has every recipient once, split by local and remote domains', async (t) => {
  const envelope = envelopeOf(
    {
      to: [a('bob@tessera.local'), a('x@remote.test')],
      cc: [a('X@Remote.TEST')],
      bcc: [a('carol@remote.test'), a('bob@tessera.local')],
    },
    ['tessera.local'],
  );
  t.same(envelope, { local: ['bob@tessera.local'], remote: ['x@remote.test', 'carol@remote.test'] });
});

t.test('Bcc recipients are in the envelope but never in the delivered headers', async (t) => {
  const recipients = { to: [a('bob@x.io')], cc: [a('cc@x.io')], bcc: [a('secret@x.io')] };
  t.same(deliveredHeaders(recipients), { to: [a('bob@x.io')], cc: [a('cc@x.io')] });
  t.ok(envelopeOf(recipients, []).remote.includes('secret@x.io'));
});
