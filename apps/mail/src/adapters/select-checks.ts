/**
 * The content checks a deployment runs, chosen in one place from its settings: spamd when
 * SPAMD_URL is set (besides the built-in scorer), clamd when CLAMD_URL is set.
 */
import { createClamdScanner, type VirusScanner } from './clamd-scanner.ts';
import { createSpamdChecker, type SpamChecker } from './spamd-checker.ts';

export interface ContentChecks {
  readonly spamd?: SpamChecker;
  readonly virusScanner?: VirusScanner;
}

export function selectContentChecks(settings: { SPAMD_URL?: string; CLAMD_URL?: string }): ContentChecks {
  return {
    ...(settings.SPAMD_URL === undefined ? {} : { spamd: createSpamdChecker(settings.SPAMD_URL) }),
    ...(settings.CLAMD_URL === undefined ? {} : { virusScanner: createClamdScanner(settings.CLAMD_URL) }),
  };
}
