#!/usr/bin/env node
// Runs the built CLI (apps/tessera/dist). `make build` (or `make run`) builds it first.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('tessera: not built yet; run `make build` first');
  process.exit(2);
}
await import(entry.href);
