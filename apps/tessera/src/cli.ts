import { writeFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadOrCreateSecret, mintToken } from '@tessera/kit';
import { EXCHANGE_USAGE, exchangeCommand } from './commands/exchange.ts';
import { ARCHIVE_USAGE, archiveCommand } from './commands/archive.ts';
import { LEADERBOARD_USAGE, leaderboardCommand } from './commands/leaderboard.ts';
import { CommandUsageError } from './commands/usage-error.ts';
import { MAIL_USAGE, mailCommand } from './commands/mail.ts';
import { openApiText, platformOpenApi } from './openapi.ts';
import { startPlatform, startRole } from './platform.ts';
import { SERVICES } from './services.ts';
import { VERSION } from './version.ts';

const ROLES = SERVICES.map((s) => `    ${s.name}: ${Object.keys(s.roles).join(', ')}`).join('\n');

const USAGE = `Usage: tessera <command> [options]

Commands:
  serve                         start the embedded platform (what \`make run\` does)
  run <service> <role>          run one role of one service as its own process
${ROLES}
${LEADERBOARD_USAGE}
${EXCHANGE_USAGE}
${ARCHIVE_USAGE}
${MAIL_USAGE}
  openapi [--out <file>]        print (or write) the platform's OpenAPI document
  token --sub <id> --scope <s>  print a bearer token the embedded platform accepts
        [--ttl <seconds>] [--data-dir <dir>]
        scopes: scores:write (game servers), scores:read (clients), profiles:write,
                trade (exchange accounts), admin (deposits, kill switch, any report)
  version                       print the version

Configuration comes from the environment; see README.md.`;

/** The `tessera` command line. Returns the exit code. */
export async function main(argv: readonly string[], env = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        await startPlatform({ env });
        return -1; // keep running until a signal
      case 'run': {
        const [serviceName, role] = rest;
        const service = SERVICES.find((s) => s.name === serviceName);
        if (service === undefined || role === undefined) {
          throw new UsageError(`run needs <service> <role>; the services and their roles:\n${ROLES}`);
        }
        await startRole(service, role, { env });
        return -1;
      }
      case 'leaderboard':
        return await leaderboardCommand(rest, env);
      case 'exchange':
        return await exchangeCommand(rest, env);
      case 'archive':
        return await archiveCommand(rest, env);
      case 'mail':
        return await mailCommand(rest, env);
      case 'openapi': {
        const { values } = parse(rest, { out: { type: 'string' } });
        const text = openApiText(await platformOpenApi());
        if (values.out === undefined) process.stdout.write(text);
        else writeFileSync(values.out, text);
        return 0;
      }
      case 'token':
        console.log(await token(rest, env));
        return 0;
      case 'version':
        console.log(VERSION);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return 0;
      default:
        console.error(`tessera: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError || error instanceof CommandUsageError) {
      console.error(`tessera: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

class UsageError extends Error {}

/** parseArgs, with a bad option reported as a usage error. */
function parse<O extends ParseArgsConfig['options']>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
}

async function token(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { values } = parse(args, {
    sub: { type: 'string' },
    scope: { type: 'string' },
    ttl: { type: 'string' },
    'data-dir': { type: 'string' },
  });
  if (!values.sub) throw new UsageError('token needs --sub <id> (the subject: a game server or user id)');
  if (!values.scope)
    throw new UsageError('token needs --scope "<scope> [<scope> …]", e.g. --scope scores:write');
  const ttl = values.ttl === undefined ? undefined : Number(values.ttl);
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl <= 0)) {
    throw new UsageError(`--ttl must be a positive number of seconds (got "${values.ttl}")`);
  }
  const dataDir = values['data-dir'] ?? env.DATA_DIR ?? './data';
  const secret = loadOrCreateSecret(dataDir, env.AUTH_JWT_SECRET || undefined);
  return mintToken({
    secret,
    sub: values.sub,
    scopes: values.scope.split(/[\s,]+/).filter(Boolean),
    ttlSeconds: ttl,
    issuer: env.AUTH_ISSUER || undefined,
    audience: env.AUTH_AUDIENCE || undefined,
  });
}
