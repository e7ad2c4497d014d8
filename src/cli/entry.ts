/** The `eventplan` executable: bin/eventplan.js runs the compiled copy; tests run this file from source. */
import { runCli } from './main.js';

await runCli(process.argv);
