/**
 * A mailbox's folders: Inbox plus the special-use folders of RFC 6154 §2, created with the
 * mailbox, and any custom folders the user adds. Special folders have fixed ids (their names
 * lower-cased) so every role can file into them without a lookup.
 */
import { mailErrors } from '../errors.ts';

export const SPECIAL_FOLDERS = [
  'Inbox',
  'All',
  'Archive',
  'Drafts',
  'Flagged',
  'Junk',
  'Sent',
  'Trash',
] as const;
export type SpecialFolderName = (typeof SPECIAL_FOLDERS)[number];

export interface Folder {
  readonly id: string;
  readonly name: string;
  readonly user_id: string;
  /** The RFC 6154 attribute (`\Sent`…); undefined for Inbox and custom folders. */
  readonly special_use?: string;
}

export const FOLDER = {
  inbox: 'inbox',
  all: 'all',
  archive: 'archive',
  drafts: 'drafts',
  flagged: 'flagged',
  junk: 'junk',
  sent: 'sent',
  trash: 'trash',
} as const;

export const MAX_FOLDER_NAME_LENGTH = 100;

export function defaultFolders(userId: string): Folder[] {
  return SPECIAL_FOLDERS.map((name) => ({
    id: name.toLowerCase(),
    name,
    user_id: userId,
    ...(name === 'Inbox' ? {} : { special_use: `\\${name}` }),
  }));
}

export function isSpecialFolderId(id: string): boolean {
  return SPECIAL_FOLDERS.some((name) => name.toLowerCase() === id);
}

/**
 * "All" is virtual (RFC 6154: every message in the store): listing it reads every folder but
 * Junk and Trash, and nothing is ever filed into it.
 */
export function isVirtualFolder(id: string): boolean {
  return id === FOLDER.all;
}

/** Checks a custom folder's name against the user's existing names (case-insensitively). */
export function validateFolderName(name: string, existing: readonly string[]): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_FOLDER_NAME_LENGTH || /[\r\n\0/]/.test(trimmed)) {
    throw mailErrors.MAIL_INVALID_FOLDER_NAME(
      `a folder name is 1 to ${MAX_FOLDER_NAME_LENGTH} characters without slashes or line breaks`,
      { field: 'name' },
    );
  }
  const lower = trimmed.toLowerCase();
  if (SPECIAL_FOLDERS.some((special) => special.toLowerCase() === lower)) {
    throw mailErrors.MAIL_INVALID_FOLDER_NAME(`"${trimmed}" is the name of a special folder`, {
      field: 'name',
    });
  }
  if (existing.some((other) => other.toLowerCase() === lower)) {
    throw mailErrors.MAIL_FOLDER_EXISTS(`a folder named "${trimmed}" exists`, { field: 'name' });
  }
  return trimmed;
}

/** Inbox and the RFC 6154 folders cannot be renamed or deleted. */
export function assertMutableFolder(id: string): void {
  if (isSpecialFolderId(id))
    throw mailErrors.MAIL_SPECIAL_FOLDER(`the ${id} folder cannot be renamed or deleted`);
}
