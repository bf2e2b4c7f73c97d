import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@tessera/testkit';
import {
  launchBrowser,
  launchPlatform,
  openTab,
  screenshot,
  signIn,
  unlabelledControls,
  tokenFor,
} from './browser.ts';

t.setTimeout(180_000);

t.test(
  'a mail sent from one user arrives live in the other one’s inbox, and the reply threads',
  async (t) => {
    const platform = await launchPlatform(t);
    const browser = await launchBrowser(t);
    const ana = (await openTab(t, browser)).page;
    const bob = (await openTab(t, browser)).page;
    await signIn(ana, platform.url, 'ana', ['mail'], '/mail/');
    await signIn(bob, platform.url, 'bob', ['mail'], '/mail/');
    await bob.locator('#messages', { hasText: 'No messages here.' }).waitFor();
    await bob.locator('#feed', { hasText: 'live' }).waitFor();

    // A mailbox exists once its owner used it: cy's, for the Cc, through the API.
    const cy = await tokenFor(platform.url, 'cy', ['mail']);
    t.equal(
      (await fetch(`${platform.url}/v1/folders`, { headers: { authorization: `Bearer ${cy}` } })).status,
      200,
    );

    const file = join(tempDir(t), 'notes.txt');
    writeFileSync(file, 'the attached notes\n');
    await ana.getByRole('button', { name: 'Compose' }).click();
    await ana.getByLabel('To', { exact: true }).fill('bob@tessera.local');
    await ana.getByLabel('Cc', { exact: true }).fill('Cy <cy@tessera.local>');
    await ana.getByLabel('Subject', { exact: true }).fill('Lunch on Friday?');
    await ana.getByLabel('Message', { exact: true }).fill('Shall we meet at noon?');
    await ana.getByLabel('Attachments').setInputFiles(file);
    await ana.getByRole('button', { name: 'Send' }).click();
    await ana.locator('#status', { hasText: 'Sent.' }).waitFor();

    // Bob's page did not reload: the message arrives over the live stream, unread.
    const arrived = bob.locator('#messages li.unread', { hasText: 'Lunch on Friday?' });
    await arrived.waitFor({ timeout: 15_000 });
    await bob.locator('#folders a[data-folder=inbox] .count', { hasText: '1' }).waitFor();
    await screenshot(bob, 'mail-arrived');

    await arrived.getByRole('link').click();
    await bob.getByTestId('body').filter({ hasText: 'Shall we meet at noon?' }).waitFor();
    t.match(await bob.locator('#message .headers').textContent(), /cy@tessera\.local/);
    await bob.locator('#folders a[data-folder=inbox] .count').waitFor({ state: 'detached' });
    const download = bob.waitForEvent('download');
    await bob.getByRole('button', { name: 'notes.txt' }).click();
    t.equal((await download).suggestedFilename(), 'notes.txt');

    // Reply in the thread: ana sees it arrive, in the same thread as her message.
    await bob.getByRole('button', { name: 'Reply' }).click();
    t.equal(await bob.getByLabel('To', { exact: true }).inputValue(), 'ana@tessera.local');
    t.equal(await bob.getByLabel('Subject', { exact: true }).inputValue(), 'Re: Lunch on Friday?');
    await bob.getByLabel('Message', { exact: true }).press('Control+Home');
    await bob.getByLabel('Message', { exact: true }).pressSequentially('Noon works. ');
    await bob.getByRole('button', { name: 'Send' }).click();
    await bob.locator('#status', { hasText: 'Sent.' }).waitFor();
    const reply = ana.locator('#messages li.unread', { hasText: 'Re: Lunch on Friday?' });
    await reply.waitFor({ timeout: 15_000 });
    await reply.getByRole('link').click();
    await ana.locator('#message', { hasText: 'In this thread (2)' }).waitFor();

    // Search with the query syntax, then move the message and mark it unread.
    await bob.getByLabel('Search mail').fill('from:ana has:attachment');
    await bob.getByRole('button', { name: 'Search', exact: true }).click();
    await bob.locator('#messages-title', { hasText: 'Search: from:ana has:attachment' }).waitFor();
    await bob.locator('#messages li', { hasText: 'Lunch on Friday?' }).waitFor();
    await bob.getByLabel('Search mail').fill('subject:nothing-like-this');
    await bob.getByRole('button', { name: 'Search', exact: true }).click();
    await bob.locator('#messages', { hasText: 'Nothing matches.' }).waitFor();
    await bob.locator('#folders a[data-folder=inbox]').click();
    await bob.locator('#messages li', { hasText: 'Lunch on Friday?' }).getByRole('link').click();
    await bob.getByLabel('Move to folder').selectOption({ label: 'Archive' });
    await bob.getByRole('button', { name: 'Move', exact: true }).click();
    await bob.locator('#status', { hasText: 'Moved to Archive.' }).waitFor();
    await bob.locator('#messages', { hasText: 'No messages here.' }).waitFor();
    await bob.locator('#folders a[data-folder=archive]').click();
    await bob.locator('#messages li', { hasText: 'Lunch on Friday?' }).getByRole('link').click();
    await bob.getByRole('button', { name: 'Mark unread' }).click();
    await bob.locator('#folders a[data-folder=archive] .count', { hasText: '1' }).waitFor();
    t.same(await unlabelledControls(ana), [], 'every control has a label');
    await screenshot(ana, 'mail');
  },
);

t.test('without WebSockets (a proxy that refuses them), new mail arrives by the long poll', async (t) => {
  const platform = await launchPlatform(t);
  const browser = await launchBrowser(t);
  const { context, page: bob } = await openTab(t, browser);
  // As a network that does not pass WebSockets: every socket fails to open.
  await context.addInitScript(() => {
    class RefusedSocket extends EventTarget {
      constructor() {
        super();
        setTimeout(() => this.dispatchEvent(new Event('error')), 0);
      }
      close() {}
    }
    Object.defineProperty(globalThis, 'WebSocket', { value: RefusedSocket });
  });
  await signIn(bob, platform.url, 'bob', ['mail'], '/mail/');
  await bob.locator('#feed', { hasText: 'long poll' }).waitFor();

  const ana = await tokenFor(platform.url, 'ana', ['mail']);
  // A mailbox exists once its owner used it.
  await fetch(`${platform.url}/v1/folders`, { headers: { authorization: `Bearer ${ana}` } });
  const sent = await fetch(`${platform.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ana}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      to: [{ email: 'bob@tessera.local' }],
      subject: 'Polled, not pushed',
      body: 'hello',
    }),
  });
  t.equal(sent.status, 201, `sent through the API: ${sent.status === 201 ? '' : await sent.text()}`);
  await bob.locator('#messages li.unread', { hasText: 'Polled, not pushed' }).waitFor({ timeout: 30_000 });
});
