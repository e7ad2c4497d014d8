/**
 * A browser as the "Signed-in devices" page names it: "Chrome on Linux", not the user-agent string.
 * bowser (MIT) knows the browsers and systems; what it cannot name is said plainly.
 */
import Bowser from 'bowser';

export function browserWords(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Unknown browser';
  const { browser, os } = Bowser.parse(userAgent);
  const name = browser.name || 'Unknown browser';
  return os.name ? `${name} on ${os.name}` : name;
}
