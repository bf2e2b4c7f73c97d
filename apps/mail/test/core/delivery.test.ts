import t from 'tap';
import { isPermanentFailure, nextAttempt, routeFor } from '../../src/core/delivery.ts';

t.test('MX hosts by preference, equal preferences in DNS order, duplicates once', async (t) => {
  t.same(
    routeFor('x.io', {
      kind: 'records',
      records: [
        { exchange: 'b.x.io.', priority: 20 },
        { exchange: 'a.x.io', priority: 10 },
        { exchange: 'c.x.io', priority: 20 },
        { exchange: 'A.x.io', priority: 30 },
      ],
    }),
    { kind: 'hosts', hosts: ['a.x.io', 'b.x.io', 'c.x.io'] },
  );
});

t.test('no MX: the domain is its own MX (RFC 5321 §5.1); no domain: permanent', async (t) => {
  t.same(routeFor('x.io', { kind: 'nodata' }), { kind: 'hosts', hosts: ['x.io'] });
  t.same(routeFor('x.io', { kind: 'records', records: [] }), { kind: 'hosts', hosts: ['x.io'] });
  t.match(routeFor('x.io', { kind: 'nxdomain' }), { kind: 'permanent', status: '5.1.2' });
});

t.test('a null MX (RFC 7505) is a permanent failure; a DNS error a temporary one', async (t) => {
  t.match(routeFor('x.io', { kind: 'records', records: [{ exchange: '.', priority: 0 }] }), {
    kind: 'permanent',
    status: '5.1.10',
  });
  t.match(routeFor('x.io', { kind: 'error', reason: 'ESERVFAIL' }), { kind: 'temporary' });
});

t.test('5xx is permanent; 4xx and network errors are temporary', async (t) => {
  t.ok(isPermanentFailure({ responseCode: 550 }));
  t.notOk(isPermanentFailure({ responseCode: 451 }));
  t.notOk(isPermanentFailure({}));
});

t.test('back-off doubles up to the cap, then gives up past the age limit', async (t) => {
  const policy = { baseMs: 1000, maxMs: 8000, giveUpAfterMs: 60_000 };
  const delays = [1, 2, 3, 4, 5, 6].map((n) => {
    const step = nextAttempt(n, 0, 0, policy);
    return step.kind === 'retry' ? step.at : -1;
  });
  t.same(delays, [1000, 2000, 4000, 8000, 8000, 8000]);
  t.same(nextAttempt(3, 0, 56_000, policy), { kind: 'retry', at: 60_000 }, 'due exactly at the age limit');
  t.same(nextAttempt(3, 0, 56_001, policy), { kind: 'give-up' });
  t.same(
    nextAttempt(10_000, 0, 0, policy),
    { kind: 'retry', at: 8000 },
    'no overflow for huge attempt counts',
  );
});
