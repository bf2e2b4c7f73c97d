/**
 * A deposit written straight into the embedded journal, for `tessera exchange deposit` when no
 * platform answers: the same check and command as `POST /v1/accounts/{id}/deposits`, sequenced
 * after the journal's last command, so the platform replays it when it starts. Only with the
 * platform stopped: a running one holds the journal and would not see the deposit.
 */
import { configError, parseConfig, platformSettings } from '@tessera/kit';
import { selectAdapters } from './adapters/select.ts';
import { exchangeRules, exchangeSettings } from './config.ts';
import { ExchangeService, type AccountView } from './service.ts';

export async function depositOffline(
  env: Readonly<Record<string, string | undefined>>,
  account: string,
  cash: number,
  shares: Readonly<Record<string, number>>,
): Promise<AccountView> {
  const platform = parseConfig(platformSettings, env);
  const config = parseConfig(exchangeSettings, env);
  const problems = [...platform.problems, ...config.problems];
  if (problems.length > 0) throw configError(problems);
  const adapters = selectAdapters(config.values, platform.values);
  try {
    const service = ExchangeService.open({ rules: exchangeRules(config.values), journal: adapters.journal });
    return await service.deposit(account, cash, shares);
  } finally {
    await adapters.close();
  }
}
