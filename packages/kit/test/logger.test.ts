import t from 'tap';
import { createLogger } from '../src/logger.ts';

t.test('createLogger names the logger and honours the level', async (t) => {
  const logger = createLogger({ level: 'warn', name: 'leaderboard' });
  t.equal(logger.level, 'warn');
  t.same(logger.bindings(), { name: 'leaderboard' });
  t.notOk(logger.isLevelEnabled('info'));
  t.ok(logger.isLevelEnabled('error'));
});
