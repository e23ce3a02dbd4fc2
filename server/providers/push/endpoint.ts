import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which Web Push endpoints Greetie will post to (decision 095). A subscription's
 * endpoint is a URL the browser gives, so anybody signed in can name any address; posting to it
 * from inside the network would let them probe it. Two checks, both needed:
 *
 * - the host must be a browser push service's (WEBPUSH_ALLOWED_HOSTS, by default those below; `*`
 *   allows any host whose addresses are public), checked at subscribe and again at send;
 * - the address connected to must be public: an IP-literal host is classified directly, a name is
 *   resolved by the connection's own lookup (`publicOnlyLookup`), which refuses the connection when
 *   any address it resolves to is not public. The address checked is the one connected to, so a
 *   name that changes its answer between subscribe and send (DNS rebinding) gains nothing.
 */

/**
 * The push services of the browsers people use: Chrome, Edge (Chromium), Opera, Samsung Internet
 * and Brave (Firebase Cloud Messaging), Firefox (Mozilla's autopush), Edge/Windows (WNS, whose
 * hosts are regional: wns2-by3p.notify.windows.com …) and Safari from macOS 13 / iOS 16.4 (Apple).
 */
export const DEFAULT_WEBPUSH_HOSTS: readonly string[] = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.notify.windows.com', 'web.push.apple.com'];

/** `*`: any host with public addresses; otherwise host names, `*.` in front for any sub-domain. */
export type AllowedHosts = '*' | readonly string[];

/** A host pattern as WEBPUSH_ALLOWED_HOSTS takes it: a DNS name, lower case, maybe `*.` first. */
export const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A public unicast address: ipaddr.js classifies it (IPv4-mapped IPv6 as the IPv4 inside) and only
 * `unicast` passes, which leaves out loopback, private (RFC 1918), link-local, carrier-grade NAT,
 * unspecified, broadcast, multicast, the documentation and benchmarking ranges and the reserved
 * ones; an IPv6 address must also be global unicast (2000::/3), which leaves out unique-local,
 * the deprecated IPv4-compatible ::a.b.c.d and anything not yet assigned.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === 'ipv6' && !ip.match(ipaddr.parse('2000::') as ipaddr.IPv6, 3)) return false;
  return ip.range() === 'unicast';
}

/** The URL's host as an IP address (brackets of IPv6 taken off), or null for a name. */
export function ipLiteral(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}

/** Whether the URL's host name is one of the allowed (a trailing dot is the same name). */
export function hostAllowed(url: URL, allowed: AllowedHosts): boolean {
  if (allowed === '*') return true;
  const host = url.hostname.replace(/\.$/, '');
  return allowed.some((p) => (p.startsWith('*.') ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p));
}

/** Why an endpoint is refused, or null when Greetie may post to it. */
export type EndpointProblem = 'format' | 'host' | 'address';

/**
 * The endpoint's URL when it is one Greetie may post to as far as the URL tells: https, no user
 * name or password, an allowed host, and an IP-literal host public. Names are resolved later
 * (`resolvesPublic` at subscribe when any host is allowed; the connection's lookup at send).
 */
export function checkEndpointUrl(endpoint: string, allowed: AllowedHosts, reachable: (address: string) => boolean = isPublicAddress): { url: URL } | { problem: EndpointProblem } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { problem: 'format' };
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return { problem: 'format' };
  if (!hostAllowed(url, allowed)) return { problem: 'host' };
  const literal = ipLiteral(url);
  if (literal !== null && !reachable(literal)) return { problem: 'address' };
  return { url };
}

/** Resolves a host name to its addresses (dns.lookup, as a connection would); tests give their own. */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Whether every address the name resolves to is public (and it resolves at all). */
export async function resolvesPublic(hostname: string, resolve: Resolve, reachable: (address: string) => boolean = isPublicAddress): Promise<boolean> {
  try {
    const addresses = await resolve(hostname);
    return addresses.length > 0 && addresses.every(reachable);
  } catch {
    return false;
  }
}

/** The error a connection fails with when its host resolves to an address that is not public. */
export class AddressNotPublicError extends Error {
  readonly code = 'EADDRNOTPUBLIC';
  constructor(hostname: string) {
    super(`${hostname} resolves to an address that is not public`);
  }
}

/**
 * A `lookup` for net/tls connections (an https.Agent's option): resolves with `resolve` and refuses
 * the connection unless every address is public, so the address connected to is one that was
 * checked. Answers in the form asked for (`all` or one address).
 */
export function publicOnlyLookup(resolve: Resolve, reachable: (address: string) => boolean = isPublicAddress): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0 || !addresses.every(reachable)) {
          callback(new AddressNotPublicError(hostname), '', 0);
          return;
        }
        const list: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
        const wanted = options.family === 4 || options.family === 6 ? list.filter((a) => a.family === options.family) : list;
        if (wanted.length === 0) callback(Object.assign(new Error(`${hostname} has no IPv${String(options.family)} address`), { code: 'ENOTFOUND' }), '', 0);
        else if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
