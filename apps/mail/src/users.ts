/**
 * `tessera mail users add`: makes a mailbox ahead of its user's first call, over the embedded
 * stores under DATA_DIR (the platform may be running: SQLite takes the writes in turn).
 */
import { ACCOUNT_TYPES, type AccountType } from './core/account.ts';
import { isValidUserId } from './core/address.ts';
import { mailErrors } from './errors.ts';
import { openEmbeddedMail } from './adapters/embedded/open-embedded.ts';
import type { Folder } from './core/folders.ts';

export interface AddedUser {
  /** false when the mailbox was there already (nothing changed but the account type). */
  readonly created: boolean;
  readonly folders: readonly Folder[];
  readonly type: AccountType;
}

export function isAccountType(value: string): value is AccountType {
  return (ACCOUNT_TYPES as readonly string[]).includes(value);
}

export async function addMailUser(options: {
  readonly dataDir: string;
  readonly userId: string;
  readonly type?: AccountType;
  readonly synchronous?: 'full' | 'normal';
}): Promise<AddedUser> {
  const { userId } = options;
  if (!isValidUserId(userId)) throw mailErrors.MAIL_INVALID_ADDRESS(`"${userId}" cannot be a mailbox name`);
  const ports = openEmbeddedMail({ dataDir: options.dataDir, synchronous: options.synchronous ?? 'full' });
  try {
    const created = await ports.metadata.ensureUser(userId);
    if (options.type !== undefined) await ports.metadata.setAccountType(userId, options.type);
    const type = (await ports.metadata.accountType(userId)) ?? 'personal';
    return { created, folders: await ports.metadata.folders(userId), type };
  } finally {
    await ports.close();
  }
}
