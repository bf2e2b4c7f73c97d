/**
 * Collects what it is handed during one turn of the event loop and passes it on as one list at
 * the turn's end (setImmediate): the consumer thread and the main thread then exchange one
 * message for a worker's whole batch instead of one per event, wake-up or outcome.
 */
export function perTurn<T>(flush: (items: T[]) => void): (item: T) => void {
  let items: T[] = [];
  let scheduled = false;
  return (item) => {
    items.push(item);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = items;
      items = [];
      flush(batch);
    });
  };
}
