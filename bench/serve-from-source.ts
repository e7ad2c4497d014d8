/** `eventplan serve` from the TypeScript source (run with `node --import tsx`), for `--source` runs. */
import { runCli } from '../src/cli/main.js';

await runCli([process.argv[0]!, 'eventplan', 'serve']);
