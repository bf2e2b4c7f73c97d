/**
 * email_id: a UUIDv7 (RFC 9562 §5.7), whose first 48 bits are the creation time in ms, so ids
 * sort by creation time and the id itself is the cursor of a newest-first listing.
 */
import { v7 } from 'uuid';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A new id. Without `now` the library's own clock and monotonic counter are used, so ids made
 * in one process within one millisecond still sort in creation order.
 */
export function newEmailId(now?: number): string {
  return now === undefined ? v7() : v7({ msecs: now });
}

export function isEmailId(id: string): boolean {
  return UUID.test(id);
}

/** The creation time (ms since the epoch) an email_id carries. */
export function emailIdTime(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
