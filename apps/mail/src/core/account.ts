/**
 * Account types: the spec's attachment limit is "configurable, different for personal and
 * business accounts". A mailbox is personal unless made business.
 */

export const ACCOUNT_TYPES = ['personal', 'business'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export interface AttachmentLimits {
  readonly personal: number;
  readonly business: number;
}

export function attachmentLimitFor(type: AccountType, limits: AttachmentLimits): number {
  return limits[type];
}
