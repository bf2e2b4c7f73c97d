#!/usr/bin/env node
// Runs the built CLI (apps/tessera/dist). `make build` (or `make run`) builds it first.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('tessera: not built yet; run `make build` first');
  process.exit(2);
}
const { main } = await import(cli.href);
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
