import t from 'tap';
import { DependencyHealth } from '../src/dependency-health.ts';

t.test('names what is down until it answers again', (t) => {
  const health = new DependencyHealth();
  t.equal(health.describe(), undefined);
  health.down('cassandra', 'no host');
  health.down('nats', 'timeout');
  t.ok(health.isDown('cassandra'));
  t.equal(health.describe(), 'cassandra unavailable (no host); nats unavailable (timeout)');
  health.up('cassandra');
  t.equal(health.describe(), 'nats unavailable (timeout)');
  t.end();
});
