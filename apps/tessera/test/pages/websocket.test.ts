import t from 'tap';
import type { WebSocketRoute } from 'playwright-core';
import { launchBrowser, launchPlatform, openTab, signIn } from './browser.ts';

t.setTimeout(180_000);

// Where the server offers the streams (the exchange's /v1/exchange/ws, mail's /v1/events), the
// pages use them instead of polling. The browser's WebSocket is answered here by the protocol's
// messages (docs/exchange-websocket.md, docs/mail-events.md), so this runs whichever server is built.

t.test('the exchange page keeps its book and tape from the WebSocket', async (t) => {
  const platform = await launchPlatform(t);
  const browser = await launchBrowser(t);
  const { page } = await openTab(t, browser);
  let server: WebSocketRoute | undefined;
  const subscribed: unknown[] = [];
  await page.routeWebSocket(/\/v1\/exchange\/ws$/, (ws) => {
    server = ws;
    // (The server's welcome comes first; sent from here before the page's open event it would be
    // lost in the mock, so it goes out with the first answer.)
    let welcomed = false;
    ws.onMessage((text) => {
      if (!welcomed)
        ws.send(JSON.stringify({ type: 'welcome', v: 1, account: 'alice', symbols: ['AAPL', 'MSFT'] }));
      welcomed = true;
      const message = JSON.parse(String(text)) as { op: string; symbol: string };
      subscribed.push(message);
      if (message.op !== 'subscribe') return;
      ws.send(
        JSON.stringify({
          type: 'snapshot',
          symbol: message.symbol,
          seq: 10,
          l1: null,
          bids: [{ price: 100, quantity: 5 }],
          asks: [{ price: 101, quantity: 7 }],
        }),
      );
    });
  });
  await signIn(page, platform.url, 'alice', ['trade'], '/exchange/');
  await page.locator('#feed', { hasText: '· live' }).waitFor();
  await page.locator('#book tbody tr.sell', { hasText: '101' }).filter({ hasText: '7' }).waitFor();
  t.same(subscribed, [{ op: 'subscribe', symbol: 'AAPL' }]);

  // A change already in the snapshot (seq 9) is skipped; seq 11 applies, with a trade.
  const md = (seq: number, quantity: number) =>
    JSON.stringify({
      type: 'md',
      symbol: 'AAPL',
      seq,
      l1: null,
      levels: [{ side: 'sell', price: 101, quantity }],
      trades: seq > 10 ? [{ id: 1, price: 101, quantity: 7 - quantity, timestamp: Date.now() }] : [],
    });
  server?.send(md(9, 1));
  server?.send(md(11, 4));
  await page.locator('#book tbody tr.sell', { hasText: '101' }).filter({ hasText: '4' }).waitFor();
  await page.locator('#tape tbody tr', { hasText: '101' }).filter({ hasText: '3' }).waitFor();
  t.equal(await page.locator('#tape tbody tr').count(), 1, 'the skipped change traded nothing');
  t.equal(await page.locator('#symbols option').count(), 2, 'the symbols come from the welcome');

  // The socket closes: the page goes back to polling the REST routes (an empty book there).
  server?.close();
  await page.locator('#feed', { hasText: 'refreshed every second' }).waitFor();
  await page.locator('#book tbody tr.sell').first().waitFor({ state: 'detached', timeout: 10_000 });
});

t.test('the mail page refreshes on an event from the WebSocket', async (t) => {
  const platform = await launchPlatform(t);
  const browser = await launchBrowser(t);
  const { page } = await openTab(t, browser);
  let server: WebSocketRoute | undefined;
  const urls: string[] = [];
  await page.routeWebSocket(/\/v1\/events/, (ws) => {
    server = ws;
    urls.push(ws.url());
  });
  await signIn(page, platform.url, 'ana', ['mail'], '/mail/');
  await page.locator('#feed', { hasText: /^· live$/ }).waitFor();
  t.match(urls[0], /\/v1\/events\?since=\d+$/, 'opened from the newest seq');
  server?.send(
    JSON.stringify({
      seq: 1_000_000,
      at: new Date().toISOString(),
      type: 'message.new',
      email_id: 'x',
      folder_id: 'inbox',
    }),
  );
  await page.locator('#status', { hasText: 'New mail arrived.' }).waitFor();
});
