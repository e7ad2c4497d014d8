/**
 * Which network addresses webhooks may reach (D18): public unicast only. ipaddr.js names the range of
 * an address; everything it does not call `unicast` is refused: private, loopback, link-local (and so
 * cloud metadata at 169.254.169.254), unique-local, multicast, CGNAT, unspecified, documentation and
 * other reserved ranges, and IPv6 forms that carry an IPv4 address (6to4, NAT64, Teredo). An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
import ipaddr from 'ipaddr.js';

/** Why `address` may not be connected to, or undefined when it is a public unicast address. */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : `${address} is a ${range} address, not a public one`;
}

/** The IP literal of a URL host (`[::1]` → `::1`), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : undefined;
}

/**
 * Why a URL may not receive webhooks, judged from its text alone (the names it holds are checked
 * again, resolved, on every connection): https only (http too when private networks are allowed), no
 * credentials, and no literal address outside the public ranges.
 */
export function urlRefusal(text: string, allowPrivateNetworks: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  const schemes = allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return allowPrivateNetworks ? 'must be an https or http URL' : 'must be an https URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (allowPrivateNetworks) return undefined;
  const literal = ipLiteral(url.hostname);
  if (literal !== undefined) {
    const refusal = addressRefusal(literal);
    return refusal && `must point to a public address (${refusal})`;
  }
  if (url.hostname === 'localhost' || url.hostname.endsWith('.localhost')) {
    return 'must point to a public address (localhost is loopback)';
  }
  return undefined;
}
