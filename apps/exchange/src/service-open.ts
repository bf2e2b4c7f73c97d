/**
 * Opening the exchange's state from its journal: the latest snapshot, then every journaled command
 * after it, through the same `apply`, so books, orders, wallets and risk counters come back exactly
 * (stateDigest proves it). What leaves the state on the way is journaled already: held only.
 */
import type { Retiring } from './core/leaving-state.ts';
import { OrderManager } from './core/order-manager.ts';
import { restoreParts } from './core/state-snapshot.ts';
import { FinishedClientIds } from './core/finished-client-ids.ts';
import { SessionClock } from './core/trading-hours.ts';
import type { ExchangeServiceOptions } from './service-types.ts';

/** Rebuilds the order manager from the journal (latest snapshot + the commands after it). */
export function openManager(options: ExchangeServiceOptions): OrderManager {
  const { journal } = options;
  // What leaves the state during the restore and the replay is journaled already: held only,
  // until the next snapshot stores it.
  const stored = journal.latestSnapshot();
  // Without a snapshot the replay below retires every order that ever finished, through this
  // memory: it knows all their ClOrdIDs. After a snapshot, it is given today's from the store.
  const clock = new SessionClock(options.rules.hours, options.rules.holidays);
  const finished = new FinishedClientIds(
    {
      order: (id) => journal.finishedOrder(id),
      byClientId: (account, clientOrderId) => journal.finishedByClientId(account, clientOrderId),
    },
    (at) => clock.at(at).day,
    stored === undefined,
  );
  const replayed: Retiring = {
    order: (order) => {
      journal.appendFinished(order);
      finished.finished(order);
    },
    execution: (execution) => journal.keepExecution(execution),
  };
  const manager =
    stored === undefined
      ? new OrderManager(options.rules)
      : restoreParts(options.rules, stored.parts, replayed);
  manager.retiring = replayed;
  manager.finished = finished;
  // A replay's events went out when the commands first ran: not built again.
  manager.recordEvents = false;
  journal.replay(manager.seq, (seq, command) => manager.apply(seq, command));
  if (stored !== undefined) {
    // Today is the day of the next command's time (never before the last one's).
    const today = clock.at(Math.max((options.now ?? Date.now)(), manager.lastAt)).day;
    finished.load(
      today,
      journal.finishedClientIdsFrom((at) => clock.at(at).day >= today),
    );
  }
  manager.recordEvents = true;
  manager.retiring = {
    order: (order) => {
      journal.appendFinished(order);
      finished.finished(order);
    },
    execution: (execution) => journal.appendExecution(execution),
  };
  return manager;
}
