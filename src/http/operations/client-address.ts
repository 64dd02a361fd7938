// Who is asking: the socket's address, or behind a trusted proxy the address that proxy
// appended to X-Forwarded-For; and whether it is on an address list (RATE_LIMIT_EXEMPT).
import { BlockList, isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

export interface ClientRequest {
  ip: string;
  headers: IncomingHttpHeaders;
}

/** `::ffff:127.0.0.1` (an IPv4 client of a dual-stack socket) is 127.0.0.1. */
export function plainAddress(address: string): string {
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
}

/**
 * The last X-Forwarded-For entry is the one the trusted proxy wrote itself; entries before it
 * come from the client and could name any address (an exempt one, say).
 */
export function clientAddress(request: ClientRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers['x-forwarded-for'];
    const last = typeof forwarded === 'string' ? forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() : '';
    if (isIP(last) !== 0) return plainAddress(last);
  }
  // Undefined only once the socket is gone; '' then matches no list.
  return plainAddress(request.ip ?? '');
}

export interface AddressList {
  has(address: string): boolean;
}

/** Entries as checked by config.parseAddressList: `addr` or `addr/prefix`. */
export function addressList(entries: readonly string[]): AddressList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  const check = (address: string): boolean => {
    const family = isIP(address);
    return entries.length > 0 && family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
  // BlockList.check builds a SocketAddress each time: answers are remembered per address
  // (a few thousand at most between resets, so the memory stays small).
  const known = new Map<string, boolean>();
  return {
    has: (address) => {
      let answer = known.get(address);
      if (answer === undefined) {
        if (known.size >= 4096) known.clear();
        known.set(address, (answer = check(address)));
      }
      return answer;
    },
  };
}
