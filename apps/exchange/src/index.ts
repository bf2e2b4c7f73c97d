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

// The trading flow (issue #12): settings, errors, the pure order manager, the service facade,
// the HTTP plugin, the journal port and its embedded adapter.
export {
  exchangeRules,
  exchangeSettings,
  parseSymbols,
  readExchangeConfig,
  symbolSpecs,
  type ExchangeConfig,
  type SymbolConfig,
} from './config.ts';
export {
  ENGINE_RESULT_ERRORS,
  engineResultError,
  exchangeError,
  exchangeErrors,
  LAYER_RANGES,
  type ExchangeErrorCode,
  type Layer,
} from './errors.ts';
export type {
  CancelAll,
  CancelOrder,
  CancelReason,
  Command,
  Deposit,
  ExchangeEvent,
  Execution,
  KillSwitch,
  NewOrder,
  Order,
} from './core/messages.ts';
export { OrderManager, type AccountState, type Applied, type ExchangeRules } from './core/order-manager.ts';
export { checkOrderShape, type OrderRequest, type Refusal } from './core/order-checks.ts';
export { checkRisk, type Exposure, type RiskLimits } from './core/risk.ts';
export { SELF_TRADE_MODES, type SelfTradeMode } from './core/self-trade.ts';
export {
  DEFAULT_HOURS,
  parseHolidays,
  parseHours,
  SessionClock,
  type SessionState,
  type TradingHours,
} from './core/trading-hours.ts';
export {
  candles,
  level1,
  level2,
  level3,
  type Candle,
  type L1,
  type L2,
  type L3,
  type L3Level,
  type Level,
} from './core/market-data.ts';
export { restoreState, snapshotState, stateDigest, type StateSnapshot } from './core/state-snapshot.ts';
export {
  ExchangeService,
  orderView,
  type AccountView,
  type ExchangeServiceOptions,
  type ExecutionQuery,
  type ExecutionView,
  type OrderInput,
  type OrderQuery,
  type OrderView,
} from './service.ts';
export { exchangeRoutes, type ExchangeRoutesOptions } from './http/routes.ts';
export type { Journal, StoredSnapshot } from './ports.ts';
export { SqliteJournal } from './adapters/embedded/sqlite-journal.ts';
export { exchange, exchangeDescriptor, type ExchangeInstance } from './descriptor.ts';
