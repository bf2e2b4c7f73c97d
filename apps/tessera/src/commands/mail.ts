/** `tessera mail <command>`: the mail service's operations. */
import { parseArgs } from 'node:util';
import { ProblemError, configError, parseConfig, platformSettings } from '@tessera/kit';
import { addMailUser, isAccountType } from '@tessera/mail';
import { CommandUsageError } from './usage-error.ts';
import { MAIL_USAGE } from './usage.ts';

export async function mailCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [group, command, ...rest] = args;
  if (group !== 'users' || command !== 'add') {
    throw new CommandUsageError(`mail needs a command:\n${MAIL_USAGE}`);
  }
  let parsed: { values: { type?: string | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...rest], options: { type: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    throw new CommandUsageError(`${(error as Error).message}\n${MAIL_USAGE}`);
  }
  const [userId, ...extra] = parsed.positionals;
  if (userId === undefined || extra.length > 0) {
    throw new CommandUsageError(`users add needs exactly one <id>:\n${MAIL_USAGE}`);
  }
  const type = parsed.values.type;
  if (type !== undefined && !isAccountType(type)) {
    throw new CommandUsageError(`--type is personal or business (got ${JSON.stringify(type)})`);
  }
  const platform = parseConfig(platformSettings, env);
  if (platform.problems.length > 0) throw configError(platform.problems);
  const domain = (env.MAIL_DOMAIN ?? 'tessera.local').split(',')[0]?.trim().toLowerCase();
  const added = await addMailUser({
    dataDir: platform.values.DATA_DIR,
    userId,
    ...(type === undefined ? {} : { type }),
    synchronous: platform.values.DATA_FSYNC ? 'full' : 'normal',
  }).catch((error: unknown) => {
    // A name that cannot be a mailbox is the caller's mistake, not a crash.
    if (error instanceof ProblemError) throw new CommandUsageError(error.message);
    throw error;
  });
  const folders = added.folders.map((f) => f.name).join(', ');
  console.log(
    `${userId}@${domain}: ${added.created ? 'created' : 'already there'} (${added.type}; folders ${folders})`,
  );
  return 0;
}
