import t from 'tap';
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

t.test('the leaderboard page shows the top 10 change live when a score is posted', async (t) => {
  const platform = await launchPlatform(t);
  const browser = await launchBrowser(t);
  const { page } = await openTab(t, browser);
  const server = await tokenFor(platform.url, 'game-server', ['scores:write']);
  const post = async (user_id: string, points: number) => {
    const response = await fetch(`${platform.url}/v1/scores`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id, points }),
    });
    t.equal(response.status, 200, `score for ${user_id}`);
  };
  for (const [user, points] of [
    ['ana', 30],
    ['bo', 20],
    ['cy', 10],
  ] as const)
    await post(user, points);

  await signIn(page, platform.url, 'bo', ['scores:read'], '/leaderboard/');
  const top = page.locator('#top tbody tr');
  await top.first().waitFor();
  t.same(await top.locator('td:nth-child(2)').allTextContents(), ['ana', 'bo', 'cy']);
  await page.locator('#player-rank', { hasText: 'bo is #2 with 20 points.' }).waitFor();

  // A new player overtakes everyone: the page shows it within its refresh, without a reload.
  await post('dee', 50);
  await page
    .locator('#top tbody tr:first-child td:nth-child(2)', { hasText: 'dee' })
    .waitFor({ timeout: 10_000 });
  t.same(await top.locator('td:nth-child(2)').allTextContents(), ['dee', 'ana', 'bo', 'cy']);
  t.same(await unlabelledControls(page), [], 'every control has a label');
  await screenshot(page, 'leaderboard');

  // A past month has no scores.
  await page.getByLabel('Month', { exact: true }).fill('2020-01');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await page.locator('#top tbody', { hasText: 'No scores in 2020-01 yet.' }).waitFor();

  // Narrow screens get the same page, stacked.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: 'This month' }).click();
  await page.locator('#top tbody tr:first-child', { hasText: 'dee' }).waitFor();
  await screenshot(page, 'leaderboard-narrow');
});
