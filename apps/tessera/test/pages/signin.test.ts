import t from 'tap';
import { launchBrowser, launchPlatform, openTab, screenshot } from './browser.ts';

t.setTimeout(180_000);

t.test('a page sends a visitor to sign in, and the keyboard alone signs in and comes back', async (t) => {
  const platform = await launchPlatform(t);
  const browser = await launchBrowser(t);
  const { page } = await openTab(t, browser);

  await page.goto(`${platform.url}/leaderboard/`);
  await page.waitForURL(`${platform.url}/signin/?next=%2Fleaderboard%2F`);
  t.equal(await page.locator(':focus').getAttribute('id'), 'sub', 'the user id has the focus');
  t.equal(await page.getByLabel('User id').getAttribute('required'), '', 'labelled and required');
  await screenshot(page, 'signin');

  // An invalid id is refused on the page, with a message.
  await page.keyboard.type('not valid!');
  await page.keyboard.press('Enter');
  await page.locator('#status[data-kind=error]', { hasText: 'The user id' }).waitFor();

  await page.getByLabel('User id').fill('');
  await page.getByLabel('User id').focus();
  await page.keyboard.type('zoe');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${platform.url}/leaderboard/`);
  await page.getByTestId('who').filter({ hasText: 'zoe' }).waitFor();
  const stored = await page.evaluate(() => sessionStorage.getItem('tessera.session'));
  t.match(JSON.parse(stored ?? '{}'), { sub: 'zoe', scopes: ['mail', 'trade', 'scores:read'] });

  // Signing out forgets the token.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${platform.url}/signin/`);
  t.equal(await page.evaluate(() => sessionStorage.getItem('tessera.session')), null);
});
