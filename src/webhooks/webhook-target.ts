// Where a webhook may be delivered: a public address only, unless the operator allows private ones
// (SVC_WEBHOOK_PRIVATE_TARGETS=allow: receivers inside the operator's own network). Otherwise a
// subscription's URL could make the service POST into its own network (the database, a cloud
// metadata address, the service itself) and read ports and answers from the delivery attempts.
// A URL naming a non-public address literally is refused when the subscription is saved; a host
// name is checked when it is resolved for each delivery, by the lookup the connection itself uses
// (so a name that resolves elsewhere later is caught too). The rules take the switch that allows
// private targets: OCPI calls to peers keep to them with a switch of their own (src/ocpi/ocpi-client.ts).
import { lookup as dnsLookup, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
// Besides the private and special ranges, every form that carries an IPv4 address or reaches a
// network of its own: IPv4-compatible (::/96, which holds :: and ::1) and -translated (::ffff:0:0:0/96)
// addresses, NAT64 (well-known and local-use), 6to4 (2002::/16), Teredo (2001::/32), site-local (fec0::/10).
for (const [network, prefix] of [['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8]] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export const privateTargetsAllowed = (): boolean => process.env.SVC_WEBHOOK_PRIVATE_TARGETS === 'allow';

/** Whether an IP address is not a public one (an IPv4-mapped IPv6 address as its IPv4 address). */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NOT_PUBLIC.check(mapped[1], 'ipv4');
  const family = isIP(address);
  return family === 0 || NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The target rules of one kind of outgoing call, whose private targets `allowed()` permits (read at each call). */
export interface TargetRules {
  /** Why a URL's host may not be called as written (an address or `localhost`), or null (a name: checked when resolved). */
  literalProblem(url: URL): string | null;
  /** The lookup of a call's connection: a name resolving to a non-public address fails the connection (code ENOTPUBLIC). */
  lookup: LookupFunction;
}

export function targetRules(allowed: () => boolean): TargetRules {
  return {
    literalProblem(url) {
      if (allowed()) return null;
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host) && isNonPublicAddress(host)) return `${host} is not a public address`;
      if (/^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host)) return `${host} is not a public host`;
      return null;
    },
    lookup(hostname, options, callback) {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const refused = allowed() ? undefined : addresses.find((a) => isNonPublicAddress(a.address));
        if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, not a public address`), { code: 'ENOTPUBLIC' }), []);
        if ((options as LookupAllOptions).all) return callback(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    },
  };
}

const webhookTargets = targetRules(privateTargetsAllowed);

/** Why a URL's host may not receive webhooks as written (an address or `localhost`), or null (a name: checked when resolved). */
export const literalTargetProblem = (url: URL): string | null => webhookTargets.literalProblem(url);

/** The lookup of a delivery's connection: a name resolving to a non-public address fails the connection. */
export const publicLookup: LookupFunction = webhookTargets.lookup;
