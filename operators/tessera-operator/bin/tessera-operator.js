#!/usr/bin/env node
// The compiled operator (tsc -b writes dist/); in development run src/main.ts with --conditions=development.
import '../dist/main.js';
