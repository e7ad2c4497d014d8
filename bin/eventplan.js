#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=30
// The young generation capped at 2 × 8 MiB (V8 grows it to 2 × 16 MiB under load), and the old
// generation collected once it is 30% above what the last collection kept (V8 lets it reach up to 4×):
// about 40 MB less resident memory under load for no measurable CPU (docs/performance.md, "Memory").
// `npm start` passes the same flags.
// Runs the compiled command line (built by `npm ci` / `npm run build`); src/cli/entry.ts is its source.
import '../dist/cli/entry.js';
