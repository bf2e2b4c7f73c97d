/**
 * The usage lines of the service commands, apart from the commands themselves: `tessera help`
 * prints them without importing the services those commands drive.
 */

export const LEADERBOARD_USAGE = `  leaderboard rebuild --period <P>
                                rebuild a period's ranking from the win log (YYYY-MM, or the
                                week or day name with LEADERBOARD_PERIOD=weekly|daily); on the
                                embedded stores, with the platform stopped
  leaderboard migrate           apply the stores' schemas (Cassandra in distributed mode)`;

export const EXCHANGE_USAGE = `  exchange deposit --account <id> [--cash <n>] [--shares SYM=<n>]…
        [--url <platform>] [--token <admin jwt>] [--offline]
                                fund an account (cash in the smallest currency unit): through
                                the REST API, or with --offline into the embedded journal under
                                DATA_DIR (only while no platform runs on it)`;

export const ARCHIVE_USAGE = `  archive leaderboard --period <P> --keep <N>
                                archive a finished period (idempotent) and delete the archives
                                beyond the newest N (the operator's archive Job runs this)`;

export const MAIL_USAGE = `  mail users add <id> [--type personal|business]
                                make the mailbox <id>@<MAIL_DOMAIN> with its folders
                                (Inbox and the RFC 6154 ones); idempotent`;
