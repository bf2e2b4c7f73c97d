/**
 * The reads of finished orders and executions, for the tests that compare them across commits,
 * snapshots, restarts and upgrades: a seeded order flow, the history its events told, and every
 * read of every account as one JSON string.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { accountName, type FlowOptions } from '../bench/order-flow.ts';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import type { Execution, OrderStatus } from '../src/core/messages.ts';
import { ExchangeService, type OrderView } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';

export function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ex-finished-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'exchange.db');
}

export function open(file: string, snapshotEvery: number, from = T0): ExchangeService {
  let now = from;
  const journal = new SqliteJournal(openSqlite(file, { synchronous: 'normal' }));
  return ExchangeService.open({ rules: rules(), journal, now: () => now++, snapshotEvery });
}

/** A journal with a snapshot every 4 commands, alice holding cash and bob 100 AAPL to trade. */
export async function aliceAndBob(file: string): Promise<ExchangeService> {
  const service = open(file, 4);
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  return service;
}

export const flow: FlowOptions = { seed: 7, accounts: 4, symbols: ['AAPL', 'MSFT'], mid: 100 };
export const ACCOUNTS = Array.from({ length: flow.accounts }, (_, i) => accountName(i));
export const STATUSES: Array<OrderStatus | undefined> = [undefined, 'new', 'completed', 'canceled'];

/** What the events said: every order id of each account, and every execution. */
export interface History {
  readonly ids: Map<string, number[]>;
  readonly executions: Execution[];
}

export function record(service: ExchangeService): History {
  const history: History = { ids: new Map(), executions: [] };
  service.subscribe(({ events }) => {
    for (const e of events) {
      if (e.type === 'order.accepted') {
        const ids = history.ids.get(e.order.account) ?? [];
        history.ids.set(e.order.account, [...ids, e.order.id]);
      } else if (e.type === 'execution') history.executions.push(e.execution);
    }
  });
  return history;
}

/** The old in-memory page: walk every id of the account, filter, stop at `limit`. */
export function referencePage(
  all: readonly OrderView[],
  status: OrderStatus | undefined,
  symbol: string | undefined,
  after: number | undefined,
  limit: number,
): { data: OrderView[]; next_cursor: number | null } {
  const data: OrderView[] = [];
  let i = after === undefined ? 0 : all.findIndex((o) => o.id > after);
  if (i < 0) i = all.length;
  for (; i < all.length && data.length < limit; i++) {
    const order = all[i]!;
    if (status !== undefined && order.status !== status) continue;
    if (symbol !== undefined && order.symbol !== symbol) continue;
    data.push(order);
  }
  return { data, next_cursor: i < all.length && data.length === limit ? data[data.length - 1]!.id : null };
}

/** Every read of every account, as one JSON string. */
export function reads(service: ExchangeService, history: History): string {
  const out: unknown[] = [];
  for (const account of ACCOUNTS) {
    const ids = history.ids.get(account) ?? [];
    const all = ids.map((id) => service.order(account, id));
    out.push(all);
    for (const status of STATUSES) {
      for (const symbol of [undefined, 'AAPL']) {
        for (const limit of [1, 3, 1000]) {
          let after: number | undefined;
          for (let pages = 0; pages < 400; pages++) {
            const page = service.orders(account, {
              limit,
              ...(status === undefined ? {} : { status }),
              ...(symbol === undefined ? {} : { symbol }),
              ...(after === undefined ? {} : { after }),
            });
            out.push(page);
            if (page.next_cursor === null) break;
            after = page.next_cursor;
          }
        }
      }
    }
    out.push(service.executions(account));
    out.push(service.executions(account, { symbol: 'MSFT', orderId: ids[3] ?? 0 }));
    out.push(service.tradeReport(account, '2026-11-23'));
  }
  return JSON.stringify(out);
}
