/**
 * A Vitest setup file (vitest.config.ts): passwords set in tests are hashed with scrypt at N=2^10, r=8,
 * p=1, about 1 ms, instead of OWASP's parameters, about half a second of CPU each on this machine.
 * Sign-ins, throttling and the browser suites hash hundreds of passwords; what they test does not
 * depend on the cost. test/people/credentials.test.ts goes back to the real parameters and checks
 * them, with the timing of an unknown email against a wrong password. Commands the tests spawn
 * (`eventplan serve`, the CLI) always hash with the real parameters.
 */
import { useHashParametersForTests } from '../../src/app/password-hash.js';

useHashParametersForTests({ N: 2 ** 10, r: 8, p: 1 });
