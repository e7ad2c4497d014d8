#!/usr/bin/env node
// Runs the compiled command line (built by `npm ci` / `npm run build`); src/cli/entry.ts is its source.
import '../dist/cli/entry.js';
