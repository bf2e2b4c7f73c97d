/** A command line the CLI cannot run: `main` prints the message and exits 2. */
export class CommandUsageError extends Error {}
