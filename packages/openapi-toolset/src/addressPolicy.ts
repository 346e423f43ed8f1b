import { lookup } from 'node:dns/promises';
import { ConfigError, errorMessage } from '@adkit/flow';
import ipaddr from 'ipaddr.js';

/** Checks that a request's host is one the app lets the toolset reach. */
export interface AddressPolicy {
  /** Resolves `hostname` and throws a message for the model unless every address is allowed. */
  check(hostname: string): Promise<void>;
}

type Address = ReturnType<typeof ipaddr.parse>;

/**
 * Requests go only to public unicast addresses (ipaddr.js's `unicast` range), unless the app
 * allows more: `true` for any address, or a list of addresses and CIDR ranges such as
 * `['127.0.0.1', '10.0.0.0/8']`. Loopback, private, link-local (169.254.169.254, the cloud
 * metadata service), unique-local, carrier-grade NAT, multicast and reserved addresses are
 * refused, IPv4-mapped IPv6 addresses included. Host names are resolved and every address they
 * resolve to must pass. (The address is checked before `fetch` resolves it again, so a DNS answer
 * that changes in between is not caught: put the app behind an egress proxy if hosts are hostile.)
 */
export function addressPolicy(allow: boolean | readonly string[] | undefined): AddressPolicy {
  if (allow === true) return { check: async () => {} };
  const ranges = (allow === undefined || allow === false ? [] : allow).map(parseRange);
  const allowed = (address: Address) =>
    ranges.some(([base, bits]) => address.kind() === base.kind() && address.match([base, bits] as never));
  return {
    async check(hostname) {
      const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
      let addresses: string[];
      if (ipaddr.isValid(host)) addresses = [host];
      else {
        try {
          addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
        } catch (error) {
          throw new Error(`the host "${host}" could not be resolved (${errorMessage(error)})`);
        }
      }
      for (const text of addresses) {
        const address = ipaddr.process(text);
        const range = address.range();
        if (range === 'unicast' || allowed(address)) continue;
        throw new Error(
          `requests to ${host === text ? text : `${host} (${text})`} are refused: it is a ${range} address, and the app did not allow it (allowPrivateAddresses)`,
        );
      }
    },
  };
}

function parseRange(entry: string): [Address, number] {
  if (typeof entry !== 'string')
    throw new ConfigError(`openApiToolset: allowPrivateAddresses entries must be addresses or CIDR ranges such as "127.0.0.1" or "10.0.0.0/8", got ${typeof entry}.`);
  try {
    if (entry.includes('/')) {
      const [base, bits] = ipaddr.parseCIDR(entry);
      return [base.kind() === 'ipv6' ? ipaddr.process(base.toString()) : base, base.kind() === 'ipv6' && ipaddr.process(base.toString()).kind() === 'ipv4' ? bits - 96 : bits];
    }
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch (error) {
    throw new ConfigError(
      `openApiToolset: allowPrivateAddresses entry "${entry}" is not an address or CIDR range (${errorMessage(error)}); use e.g. "127.0.0.1" or "10.0.0.0/8".`,
      { cause: error },
    );
  }
}
