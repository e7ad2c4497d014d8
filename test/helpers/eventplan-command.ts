/**
 * How tests start the real `eventplan` command: the compiled copy (`npm ci` and `npm run build` make
 * dist/) when it is newer than every source file, as in CI's fresh clone, else the source through tsx.
 * The compiled copy starts in about a third of the time, which the CLI, ops and crash suites pay for
 * every process they spawn; an edit not yet built still runs from source, so no test sees stale code.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const COMPILED = join(ROOT, 'dist/cli/entry.js');

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function compiledIsCurrent(): boolean {
  try {
    return statSync(COMPILED).mtimeMs >= newestSource(join(ROOT, 'src'));
  } catch {
    return false;
  }
}

let chosen: string[] | undefined;

/** Node's arguments before the command's own: `[entry]` or `['--import', 'tsx', entry]`, absolute. */
export function eventplanEntry(): string[] {
  chosen ??= compiledIsCurrent() ? [COMPILED] : ['--import', 'tsx', join(ROOT, 'src/cli/entry.ts')];
  return chosen;
}
