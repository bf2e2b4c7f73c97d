/**
 * The risk rules of the order manager, pure: limits from configuration, counters per account and
 * symbol kept by the caller, the trading day passed in (see trading-hours.ts).
 *   - max order size: quantity ≤ maxQuantity;
 *   - max notional: price × quantity ≤ maxNotional;
 *   - daily cap (spec: "at most 1 million shares of one stock per day"): shares filled today +
 *     shares still open + this order ≤ dailyCap. Open quantity counts because it may fill today;
 *     a cancel gives it back.
 */
export interface RiskLimits {
  readonly dailyCap: number;
  readonly maxQuantity: number;
  readonly maxNotional: number;
}

/** One account's counters for one symbol. */
export interface Exposure {
  /** The trading day `filledToday` belongs to. */
  day: string;
  filledToday: number;
  /** Remaining quantity of the account's open orders in the symbol. */
  open: number;
}

export function emptyExposure(): Exposure {
  return { day: '', filledToday: 0, open: 0 };
}

export type RiskRefusal = 'EX_RISK_MAX_ORDER_SIZE' | 'EX_RISK_MAX_NOTIONAL' | 'EX_RISK_DAILY_CAP' | undefined;

export function filledOn(exposure: Exposure | undefined, day: string): number {
  return exposure !== undefined && exposure.day === day ? exposure.filledToday : 0;
}

export function checkRisk(
  limits: RiskLimits,
  exposure: Exposure | undefined,
  day: string,
  price: number,
  quantity: number,
): RiskRefusal {
  if (quantity > limits.maxQuantity) return 'EX_RISK_MAX_ORDER_SIZE';
  if (price * quantity > limits.maxNotional) return 'EX_RISK_MAX_NOTIONAL';
  if (filledOn(exposure, day) + (exposure?.open ?? 0) + quantity > limits.dailyCap)
    return 'EX_RISK_DAILY_CAP';
  return undefined;
}

/** A fill of `quantity` on `day`: it moves from open to filled. */
export function recordFill(exposure: Exposure, day: string, quantity: number): void {
  if (exposure.day !== day) {
    exposure.day = day;
    exposure.filledToday = 0;
  }
  exposure.filledToday += quantity;
  exposure.open -= quantity;
}
