/**
 * Where a mail server a person names may be: on the public internet only, unless the operator
 * allows private addresses (MAIL_SERVERS_ALLOW_PRIVATE). Without this, "my IMAP server" could be
 * the operator's database or a cloud's metadata address, probed from inside the network. The name
 * is resolved once and the connection goes to the address checked (the certificate is still
 * checked against the name), so a second lookup cannot answer otherwise.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Whether an address is private, loopback, link-local or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : null;
  if (v4 ?? isIP(address) === 4) return PRIVATE.check(v4 ?? address, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

/** Why a server cannot be used, in words; the caller answers it as that server's problem. */
export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/**
 * The address to connect to for `host`: its first public address, or AddressRefused when it has
 * only private ones (and those are not allowed). A name that does not resolve is the connection's
 * to report (ENOTFOUND, in words by describeFailure).
 */
export async function addressFor(host: string, allowPrivate: boolean): Promise<string | undefined> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let addresses: string[];
  try {
    addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  } catch {
    return undefined;
  }
  if (allowPrivate) return addresses[0];
  const open = addresses.find((a) => !isPrivateAddress(a));
  if (!open)
    throw new AddressRefused(
      `${host} is on a private network (${addresses[0]}): this server connects to mail servers on the internet only.`,
    );
  return open;
}
