/** The FIX order gateway tests' sessions, venues and messages. */
import type { Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../../src/adapters/embedded/sqlite-journal.ts';
import { bodyText } from '../../src/fix/body-bytes.ts';
import { decode, encode, type Field } from '../../src/fix/codec.ts';
import type { OrderSession } from '../../src/fix/order-gateway.ts';
import { ExchangeService } from '../../src/service.ts';
import { rules, T0 } from '../core/exchange-rules.ts';

/** A logged-on session that keeps what it was sent, as `tag=value|…` bodies. */
export function session(account: string) {
  const sent: string[] = [];
  const s: OrderSession & { sent: string[] } = {
    account,
    sent,
    sendApp: (type, body) => sent.push(`35=${type}|${bodyText(body).replaceAll('\x01', '|')}`),
    reject: (refSeq, refMsgType, reason, text, refTag) =>
      sent.push(`35=3|45=${refSeq}|371=${refTag}|372=${refMsgType}|373=${reason}|58=${text}`),
  };
  return s;
}

export const tags = (line: string) =>
  Object.fromEntries(
    line
      .split('|')
      .filter(Boolean)
      .map((f) => f.split('=') as [string, string]),
  );

export function openService(t: Test, file = ':memory:') {
  let now = T0;
  const service = ExchangeService.open({
    rules: rules({ limits: { dailyCap: 1_000_000, maxQuantity: 10_000, maxNotional: 100_000_000 } }),
    journal: new SqliteJournal(openSqlite(file)),
    now: () => now++,
  });
  t.teardown(() => service.close());
  return service;
}

export async function venue(t: Test, file?: string) {
  const service = openService(t, file);
  await service.deposit('alice', 1_000_000, { AAPL: 1_000 });
  await service.deposit('bob', 1_000_000, { AAPL: 1_000 });
  return service;
}

export function nos(fields: Field[]) {
  const m = decode(encode([[35, 'D'], [60, '20261123-15:00:00.000'], [40, '2'], ...fields]));
  if ('garbled' in m) throw new Error(m.garbled);
  return m;
}

export const buyB1: Field[] = [
  [11, 'b1'],
  [55, 'AAPL'],
  [54, '1'],
  [38, '5'],
  [44, '100'],
];

export function statusRequest(fields: Field[]) {
  const m = decode(encode([[35, 'H'], ...fields]));
  if ('garbled' in m) throw new Error(m.garbled);
  return m;
}
