// The signed-in account's tables: balances, open orders (each with its Cancel button) and the
// latest executions, newest first.
import { byId, el, fill, num } from '/common/api.js';

/** A timestamp as the page shows it (the tape and the executions). */
export const time = (ms) => new Date(ms).toLocaleTimeString('en-GB');

/** Fills the three tables from GET /v1/accounts/me, /v1/orders and /execution's answers. */
export function renderAccount({ me, open, executions }, { shown, onCancel }) {
  fill(
    byId('balances').querySelector('tbody'),
    el(
      'tr',
      {},
      el('td', {}, 'Cash'),
      el('td', { class: 'num' }, num(me.cash.available)),
      el('td', { class: 'num' }, num(me.cash.reserved)),
    ),
    ...Object.entries(me.shares).map(([name, held]) =>
      el(
        'tr',
        {},
        el('td', {}, name),
        el('td', { class: 'num' }, num(held.available)),
        el('td', { class: 'num' }, num(held.reserved)),
      ),
    ),
  );
  fill(
    byId('open').querySelector('tbody'),
    ...(open.data.length === 0
      ? [el('tr', {}, el('td', { colspan: 5, class: 'muted' }, 'No open orders.'))]
      : open.data.map((order) =>
          el(
            'tr',
            {},
            el('td', {}, order.id),
            el('td', { class: order.side }, order.side),
            el('td', { class: 'num' }, num(order.price)),
            el('td', { class: 'num' }, num(order.remainingQuantity)),
            el(
              'td',
              {},
              el(
                'button',
                {
                  type: 'button',
                  class: 'secondary',
                  'aria-label': `Cancel order ${order.id}`,
                  onclick: () => onCancel(order.id),
                },
                'Cancel',
              ),
            ),
          ),
        )),
  );
  const recent = executions.executions.slice(-shown).reverse();
  fill(
    byId('executions').querySelector('tbody'),
    ...(recent.length === 0
      ? [el('tr', {}, el('td', { colspan: 4, class: 'muted' }, 'No executions.'))]
      : recent.map((x) =>
          el(
            'tr',
            {},
            el('td', {}, time(x.timestamp)),
            el('td', { class: x.side }, x.side),
            el('td', { class: 'num' }, num(x.price)),
            el('td', { class: 'num' }, num(x.quantity)),
          ),
        )),
  );
}
