import t from 'tap';
import { REPLY, classifyRecipient } from '../../src/core/acceptance.ts';

const domains = ['tessera.local', 'example.org'];

t.test('local domains are accepted for their users, any other domain is relaying', async (t) => {
  t.same(classifyRecipient('alice@tessera.local', domains), { kind: 'local', userId: 'alice' });
  t.same(classifyRecipient('bob@EXAMPLE.org', domains), { kind: 'local', userId: 'bob' });
  t.same(classifyRecipient('victim@gmail.test', domains), { kind: 'reject', reply: REPLY.relayDenied });
  t.same(classifyRecipient('x@tessera.local.evil.test', domains), {
    kind: 'reject',
    reply: REPLY.relayDenied,
  });
  t.same(classifyRecipient('not-an-address', domains), { kind: 'reject', reply: REPLY.badAddress });
});

t.test('the replies carry the RFC 3463 codes the spec asks for', async (t) => {
  t.match(REPLY.unknownUser, { code: 550, message: /^5\.1\.1 / });
  t.match(REPLY.relayDenied, { code: 550, message: /^5\.7\.1 / });
  t.match(REPLY.tooLarge, { code: 552, message: /^5\.3\.4 / });
});
