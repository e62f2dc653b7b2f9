import type { IncomingMessage } from 'node:http';

/** Express's compiled `trust proxy fn`: may the hop at `addr`, `i` hops away, name the one before it? */
export type TrustFunction = (addr: string, i: number) => boolean;

/**
 * The client's address as Express's `req.ip` computes it (proxy-addr): the socket's address, unless
 * that hop is trusted, in which case X-Forwarded-For is walked from the nearest hop back to the first
 * one not trusted. Takes the same trust function, so both paths of the gateway agree.
 */
export function clientAddress(req: IncomingMessage, trust: TrustFunction): string {
  const socketAddress = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  const header = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
  if (!header || !trust(socketAddress, 0)) return socketAddress;
  const hops = header
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  let address = socketAddress;
  for (let i = hops.length - 1, n = 1; i >= 0; i--, n++) {
    address = hops[i]!;
    // The last listed hop is the client when every hop before it is trusted.
    if (i === 0 || !trust(address, n)) break;
  }
  return address;
}
