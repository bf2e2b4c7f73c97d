import { createLogger, parseConfig, platformSettings, readConfig } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import t, { type Test } from 'tap';
import { mailSettings } from '../src/config.ts';
import { mailDescriptor } from '../src/descriptor.ts';

async function open(t: Test, env: Record<string, string>) {
  const all = { DATA_DIR: tempDir(t, 'tessera-mail-descriptor-'), SMTP_PORT: '0', ...env };
  const instance = await mailDescriptor.open(readConfig(mailSettings, all), {
    logger: createLogger({ name: 'mail-descriptor-test', level: 'silent' }),
    telemetry: undefined,
    platform: parseConfig(platformSettings, all).values,
    now: Date.now,
    roles: Object.keys(mailDescriptor.roles),
  });
  t.teardown(() => instance.close());
  return instance;
}

t.test('the worker and indexer stay on the main thread unless MAIL_CONSUMER_THREAD is set', async (t) => {
  t.equal((await open(t, {})).consumerThread, undefined);
  const threaded = await open(t, { MAIL_CONSUMER_THREAD: 'true' });
  t.ok(threaded.consumerThread?.current() !== undefined, 'a consumer thread runs');
});
