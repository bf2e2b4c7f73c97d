import t from 'tap';
import type { Page } from 'playwright-core';
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

async function place(page: Page, side: 'Buy' | 'Sell', price: number, quantity: number): Promise<void> {
  await page.getByLabel(side, { exact: true }).check();
  await page.getByLabel('Limit price').fill(String(price));
  await page.getByLabel('Quantity', { exact: true }).fill(String(quantity));
  await page.getByRole('button', { name: 'Place order' }).click();
  const placed = page.locator('#status', { hasText: /^Order \d+ (placed|filled)/ });
  await placed.waitFor().catch(async (error: unknown) => {
    throw new Error(
      `no order placed; the page says "${await page.locator('#status').textContent()}" at ${page.url()}`,
      {
        cause: error,
      },
    );
  });
}

t.test('crossing orders from two accounts change the book and the tape on both pages', async (t) => {
  // Trading at any hour: the default session closes at 16:00 New York time.
  const platform = await launchPlatform(t, { EXCHANGE_HOURS: 'always' });
  const admin = await tokenFor(platform.url, 'ops', ['admin']);
  const deposit = async (account: string, body: object) => {
    const response = await fetch(`${platform.url}/v1/accounts/${account}/deposits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    t.equal(response.status, 200, `deposit for ${account}`);
  };
  await deposit('alice', { cash: 100_000 });
  await deposit('bob', { shares: { AAPL: 50 } });

  const browser = await launchBrowser(t);
  const buyer = (await openTab(t, browser, { width: 1280, height: 1100 })).page;
  const seller = (await openTab(t, browser)).page;
  await signIn(buyer, platform.url, 'alice', ['trade'], '/exchange/');
  await signIn(seller, platform.url, 'bob', ['trade'], '/exchange/');
  await buyer.locator('#balances tbody', { hasText: '100,000' }).waitFor();

  await place(buyer, 'Buy', 100, 10);
  const bid = (page: Page, quantity: string) =>
    page
      .locator('#book tbody tr.buy', { hasText: '100' })
      .filter({ hasText: quantity })
      .waitFor({ timeout: 10_000 });
  await bid(buyer, '10');
  await bid(seller, '10');
  await buyer.locator('#open tbody', { hasText: 'buy' }).waitFor();

  await place(seller, 'Sell', 100, 4);
  for (const page of [buyer, seller]) {
    await bid(page, '6');
    await page
      .locator('#tape tbody tr', { hasText: '100' })
      .filter({ hasText: '4' })
      .first()
      .waitFor({ timeout: 10_000 });
  }
  await buyer.locator('#executions tbody tr', { hasText: 'buy' }).waitFor({ timeout: 10_000 });
  await buyer.locator('#balances tbody', { hasText: 'AAPL' }).waitFor({ timeout: 10_000 });
  await buyer.locator('#candles rect').first().waitFor({ timeout: 10_000 });
  t.match(await buyer.locator('#depth').innerHTML(), /bid-area/, 'the depth chart has the bids');

  // Cancel the rest of the buy order: the bid leaves both books.
  await buyer.getByRole('button', { name: /^Cancel order/ }).click();
  await buyer.locator('#status', { hasText: /canceled/ }).waitFor();
  await seller.locator('#book tbody tr.buy').first().waitFor({ state: 'detached', timeout: 10_000 });
  t.match(await seller.locator('#book tbody').textContent(), /No spread/);

  // Back to a book with both sides for the picture.
  await place(seller, 'Sell', 103, 5);
  await place(buyer, 'Buy', 98, 3);
  await place(buyer, 'Buy', 97, 8);
  await buyer.locator('#book tbody tr.sell', { hasText: '103' }).waitFor({ timeout: 10_000 });
  t.same(await unlabelledControls(buyer), [], 'every control has a label');
  await screenshot(buyer, 'exchange');
});
