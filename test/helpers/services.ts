/**
 * The external servers and programs some suites need: PostgreSQL, Redis, and Chromium for the browser
 * suites. Missing, those suites skip and say why; with EVENTPLAN_REQUIRE_SERVICES=1 (CI) a missing one
 * fails the run instead, so nothing is skipped silently.
 */
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';

export type Service = 'postgres' | 'redis';

const VARIABLE: Record<Service, string> = { postgres: 'TEST_DATABASE_URL', redis: 'TEST_REDIS_URL' };

export const servicesRequired = (): boolean => process.env.EVENTPLAN_REQUIRE_SERVICES === '1';

/** The URL of a test server, or undefined when its variable is unset. */
export function serviceUrl(service: Service): string | undefined {
  return process.env[VARIABLE[service]] || undefined;
}

export function requireServiceUrl(service: Service): string {
  const url = serviceUrl(service);
  if (!url) throw new Error(`${VARIABLE[service]} is not set: the ${service} suites need a server`);
  return url;
}

/** `describe` that runs only when the service's URL is set (see the file comment for the other cases). */
export function describeWithService(service: Service | Service[], name: string, suite: () => void): void {
  const missing = ([] as Service[]).concat(service).filter((one) => !serviceUrl(one));
  if (missing.length === 0) {
    describe(name, suite);
    return;
  }
  const variables = missing.map((one) => VARIABLE[one]).join(' and ');
  describe(name, () => {
    if (servicesRequired()) {
      it(`needs ${variables}, which EVENTPLAN_REQUIRE_SERVICES=1 makes mandatory`, () => {
        throw new Error(`${variables} not set, but EVENTPLAN_REQUIRE_SERVICES=1 forbids skipping this suite`);
      });
    } else {
      it.skip(`skipped: ${variables} not set`, () => {});
    }
  });
}

/** Debian's Chromium, which playwright-core drives; `CHROMIUM` names another (as for npm run screenshots). */
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Stands for a browser suite when Chromium is missing: skipped with the reason, or failed in CI. */
export function describeWithoutChromium(name: string): void {
  describe(name, () => {
    if (servicesRequired()) {
      it(`needs a browser at ${CHROMIUM}, which EVENTPLAN_REQUIRE_SERVICES=1 makes mandatory`, () => {
        throw new Error(
          `no browser at ${CHROMIUM} (apt-get install -y chromium), but EVENTPLAN_REQUIRE_SERVICES=1 forbids skipping this suite`,
        );
      });
    } else {
      it.skip(`skipped: no browser at ${CHROMIUM} (apt-get install -y chromium)`, () => {});
    }
  });
}
