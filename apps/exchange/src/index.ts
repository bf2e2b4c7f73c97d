// The exchange's public surface, listed name by name.
export {
  ACCEPTED,
  MSG_CANCEL,
  MSG_NEW,
  OUT_ACCEPTED,
  OUT_CANCELED,
  OUT_COMPLETED,
  OUT_EXECUTION,
  OUT_LEVEL,
  OUT_REJECTED,
  RESULT,
  SIDE_BUY,
  SIDE_SELL,
  resultName,
  type ResultCode,
  type ResultName,
  type SideCode,
} from './core/codes.ts';
export { MatchingEngine, type EngineOptions, type EngineSnapshot, type InputEvent } from './core/engine.ts';
export { Emitter } from './core/emitter.ts';
export { LadderOrderBook } from './core/ladder-order-book.ts';
export type { OrderBook } from './core/order-book.ts';
export { OrderIndex } from './core/order-index.ts';
export {
  OutputBuffer,
  RECORD_WIDTH,
  toEvents,
  type EngineEvent,
  type OrderStatus,
  type Side,
} from './core/output.ts';
export {
  checkSpec,
  MAX_LADDER_TICKS,
  MAX_ORDER_QUANTITY,
  validPrice,
  validQuantity,
  type SymbolSpec,
} from './core/symbol-spec.ts';
