/**
 * `tessera exchange deposit --account A --cash N [--shares SYM=N]…`: funds an account.
 * Through the public REST route (`POST /v1/accounts/{id}/deposits`, an admin token minted from
 * the platform's secret, or `--token`), so a running platform applies it like any other command.
 * `--offline` writes it straight into the embedded journal under DATA_DIR instead, which the
 * platform replays when it starts: only when asked, since a platform still running on that
 * DATA_DIR (at another address) would then write the same sequence numbers and fail.
 */
import { parseArgs } from 'node:util';
import { loadOrCreateSecret, mintToken } from '@tessera/kit';
import { depositOffline } from '@tessera/exchange';
import { CommandUsageError } from './usage-error.ts';
import { EXCHANGE_USAGE } from './usage.ts';

interface Deposit {
  readonly account: string;
  readonly cash: number;
  readonly shares: Record<string, number>;
}

function wholeNumber(text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) {
    throw new CommandUsageError(`${what} must be a whole number (got "${text}")`);
  }
  return n;
}

function parseDeposit(args: readonly string[]): Deposit & { url?: string; token?: string; offline: boolean } {
  let values: {
    account?: string;
    cash?: string;
    shares?: string[];
    url?: string;
    token?: string;
    offline?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        account: { type: 'string' },
        cash: { type: 'string' },
        shares: { type: 'string', multiple: true },
        url: { type: 'string' },
        token: { type: 'string' },
        offline: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new CommandUsageError(`${(error as Error).message}\n${EXCHANGE_USAGE}`);
  }
  if (!values.account) throw new CommandUsageError(`deposit needs --account <id>\n${EXCHANGE_USAGE}`);
  const shares: Record<string, number> = {};
  for (const entry of values.shares ?? []) {
    const [symbol, count, extra] = entry.split('=');
    if (!symbol || count === undefined || extra !== undefined) {
      throw new CommandUsageError(`--shares is SYMBOL=<n> (got "${entry}")`);
    }
    shares[symbol] = wholeNumber(count, `--shares ${symbol}`);
  }
  const cash = values.cash === undefined ? 0 : wholeNumber(values.cash, '--cash');
  if (cash === 0 && Object.keys(shares).length === 0) {
    throw new CommandUsageError(`deposit needs --cash or --shares\n${EXCHANGE_USAGE}`);
  }
  if (values.offline === true && (values.url !== undefined || values.token !== undefined)) {
    throw new CommandUsageError(
      `--offline writes the journal: it takes no --url or --token\n${EXCHANGE_USAGE}`,
    );
  }
  return {
    account: values.account,
    cash,
    shares,
    url: values.url,
    token: values.token,
    offline: values.offline === true,
  };
}

/** The platform's own address from PORT and HOST (a wildcard host is reached on loopback). */
function platformUrl(env: NodeJS.ProcessEnv): string {
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || '8080'}`;
}

const refused = (error: unknown): boolean =>
  (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';

export async function exchangeCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'deposit') throw new CommandUsageError(`exchange needs a command:\n${EXCHANGE_USAGE}`);
  const deposit = parseDeposit(rest);
  if (deposit.offline) {
    const account = await depositOffline(env, deposit.account, deposit.cash, deposit.shares);
    console.error(
      'tessera: the deposit went into the journal under DATA_DIR; the platform replays it at start',
    );
    console.log(JSON.stringify(account, null, 2));
    return 0;
  }
  const url = deposit.url ?? platformUrl(env);
  const token =
    deposit.token ??
    (await mintToken({
      secret: loadOrCreateSecret(env.DATA_DIR || './data', env.AUTH_JWT_SECRET || undefined),
      sub: 'tessera-cli',
      scopes: ['admin'],
      ttlSeconds: 300,
      issuer: env.AUTH_ISSUER || undefined,
      audience: env.AUTH_AUDIENCE || undefined,
    }));
  let response: Response;
  try {
    response = await fetch(`${url}/v1/accounts/${encodeURIComponent(deposit.account)}/deposits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cash: deposit.cash, shares: deposit.shares }),
    });
  } catch (error) {
    if (!refused(error)) throw error;
    console.error(
      `tessera: no platform answers at ${url}. Start it, point at it with --url, or, while no ` +
        'platform runs on this DATA_DIR, write the deposit into its journal with --offline',
    );
    return 1;
  }
  const text = await response.text();
  if (!response.ok) {
    console.error(`tessera: the deposit was refused (${response.status}): ${text}`);
    return 1;
  }
  console.log(JSON.stringify(JSON.parse(text), null, 2));
  return 0;
}
