import { writeFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadOrCreateSecret, mintToken } from '@tessera/kit';
import { CommandUsageError } from './commands/usage-error.ts';
import { ARCHIVE_USAGE, EXCHANGE_USAGE, LEADERBOARD_USAGE, MAIL_USAGE } from './commands/usage.ts';
import { openApiText, platformOpenApi } from './openapi.ts';
import { startPlatform, startRole } from './platform.ts';
import { loadService, loadServices } from './services.ts';
import { VERSION } from './version.ts';

/** Every service's roles, one line each: loads every service, so only for usage texts. */
async function roleLines(): Promise<string> {
  const services = await loadServices();
  return services.map((s) => `    ${s.name}: ${Object.keys(s.roles).join(', ')}`).join('\n');
}

/** The usage text; it names every service's roles, so it loads every service. */
async function usage(): Promise<string> {
  return `Usage: tessera <command> [options]

Commands:
  serve                         start the embedded platform (what \`make run\` does)
  run <service> <role>          run one role of one service as its own process
${await roleLines()}
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
}

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
        const service = serviceName === undefined ? undefined : await loadService(serviceName);
        if (service === undefined || role === undefined) {
          throw new UsageError(
            `run needs <service> <role>; the services and their roles:\n${await roleLines()}`,
          );
        }
        await startRole(service, role, { env });
        return -1;
      }
      // A command's module, and the service it drives, are imported when that command runs.
      case 'leaderboard':
        return await (await import('./commands/leaderboard.ts')).leaderboardCommand(rest, env);
      case 'exchange':
        return await (await import('./commands/exchange.ts')).exchangeCommand(rest, env);
      case 'archive':
        return await (await import('./commands/archive.ts')).archiveCommand(rest, env);
      case 'mail':
        return await (await import('./commands/mail.ts')).mailCommand(rest, env);
      case 'openapi': {
        const { values } = await parse(rest, { out: { type: 'string' } });
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
        console.log(await usage());
        return 0;
      default:
        console.error(`tessera: unknown command "${command}"\n\n${await usage()}`);
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
async function parse<O extends ParseArgsConfig['options']>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${await usage()}`);
  }
}

async function token(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { values } = await parse(args, {
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
