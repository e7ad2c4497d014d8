#!/usr/bin/env -S node --max-semi-space-size=8
// The young generation capped at 2 × 8 MiB (V8 grows it to 2 × 16 MiB under load): about 15 MB less
// resident memory for no measurable CPU (docs/performance.md, "Memory"). `npm start` passes the same flag.
// Runs the compiled command line (built by `npm ci` / `npm run build`); src/cli/entry.ts is its source.
import '../dist/cli/entry.js';
