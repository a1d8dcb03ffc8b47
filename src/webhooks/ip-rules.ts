import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A parsed comma list of addresses and CIDR ranges (a bare address is a range of one). */
export type IpList = readonly [Address, number][];

/** Parses a comma list of IPs and CIDRs; entries that are neither are returned apart. */
export function parseIpList(text: string | null | undefined): { list: IpList; invalid: string[]; names: string[] } {
  const list: [Address, number][] = [];
  const invalid: string[] = [];
  const names: string[] = [];
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    try {
      if (entry.includes('/')) {
        const [a, bits] = ipaddr.parseCIDR(entry);
        list.push([normal(a), a.kind() === 'ipv6' && normal(a).kind() === 'ipv4' ? bits - 96 : bits]);
      } else {
        const a = normal(ipaddr.parse(entry));
        list.push([a, a.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      if (/^[a-z0-9.-]+$/i.test(entry)) names.push(entry.toLowerCase());
      else invalid.push(entry);
    }
  }
  return { list, invalid, names };
}

/** An address in its plain form: IPv4-mapped IPv6 addresses as IPv4. */
function normal(a: Address): Address {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

export function parseAddress(text: string): Address | null {
  try {
    return normal(ipaddr.parse(text.trim().replace(/^\[|\]$/g, '')));
  } catch {
    return null;
  }
}

/** Whether an address lies in one of the list's ranges. */
export function inList(address: string | Address, list: IpList): boolean {
  const a = typeof address === 'string' ? parseAddress(address) : address;
  if (!a) return false;
  return list.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits));
}

/** Ranges an outbound request may not reach unless allowed: loopback, link-local, private and the like. */
const INTERNAL_RANGES = new Set(['loopback', 'linkLocal', 'private', 'uniqueLocal', 'unspecified', 'carrierGradeNat', 'reserved', 'broadcast', 'multicast', 'benchmarking']);

export function isInternal(address: string | Address): boolean {
  const a = typeof address === 'string' ? parseAddress(address) : address;
  return a === null || INTERNAL_RANGES.has(a.range());
}

/**
 * The client of a request: the connection's address, unless it is a trusted proxy; then
 * X-Forwarded-For is read right to left and the first hop that is not a trusted proxy is the client.
 */
export function clientAddress(remote: string, forwardedFor: string | undefined, trusted: IpList): string {
  const direct = parseAddress(remote)?.toString() ?? remote;
  if (!trusted.length || !inList(direct, trusted) || !forwardedFor) return direct;
  const hops = forwardedFor.split(',').map((h) => h.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]!);
    if (!hop) return hops[i]!;
    if (!inList(hop, trusted)) return hop.toString();
  }
  return hops.length ? (parseAddress(hops[0]!)?.toString() ?? direct) : direct;
}
