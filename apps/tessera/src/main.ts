/** The `tessera` process: runs the CLI with the process's arguments and environment. */
import { main } from './cli.ts';

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
