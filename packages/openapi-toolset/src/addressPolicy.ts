import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { ConfigError, errorMessage } from '@adkit/flow';
import ipaddr from 'ipaddr.js';
import { Agent, type Dispatcher } from 'undici';

/** Resolves a host name to its addresses (the system resolver; tests give their own). */
export type Resolve = (hostname: string) => Promise<string[]>;

/** Checks that a request's host is one the app lets the toolset reach. */
export interface AddressPolicy {
  /** Resolves `hostname` and throws a message for the model unless every address is allowed. */
  check(hostname: string): Promise<void>;
  /**
   * The connection pool requests go through: it checks the addresses again when it connects, on
   * the answer it connects to, so a DNS answer that changes after `check` (rebinding) is refused.
   */
  dispatcher(): Dispatcher;
  /** Closes the pool's connections. */
  close(): Promise<void>;
}

type Address = ReturnType<typeof ipaddr.parse>;

const systemResolve: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Requests go only to public unicast addresses (ipaddr.js's `unicast` range), unless the app
 * allows more: `true` for any address, or a list of addresses and CIDR ranges such as
 * `['127.0.0.1', '10.0.0.0/8']`. Loopback, private, link-local (169.254.169.254, the cloud
 * metadata service), unique-local, carrier-grade NAT, multicast and reserved addresses are
 * refused, IPv4-mapped IPv6 addresses included. Host names are resolved and every address they
 * resolve to must pass, before the request and again when the connection is made.
 */
export function addressPolicy(allow: boolean | readonly string[] | undefined, resolve: Resolve = systemResolve): AddressPolicy {
  const ranges = allow === true || allow === undefined || allow === false ? [] : allow.map(parseRange);
  const allowed = (address: Address) =>
    allow === true || ranges.some(([base, bits]) => address.kind() === base.kind() && address.match([base, bits] as never));
  /** The first address of the list that is refused, with why; `undefined` when all pass. */
  const refusal = (host: string, addresses: readonly string[]): string | undefined => {
    for (const text of addresses) {
      const address = ipaddr.process(text);
      const range = address.range();
      if (range === 'unicast' || allowed(address)) continue;
      return `requests to ${host === text ? text : `${host} (${text})`} are refused: it is a ${range} address, and the app did not allow it (allowPrivateAddresses)`;
    }
    return undefined;
  };
  const connectLookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = refusal(hostname, addresses);
        if (refused) return callback(Object.assign(new Error(refused), { code: 'ADDRESS_REFUSED' }), '', 4);
        const entries = addresses.map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }));
        const wanted = options.family === 4 || options.family === 6 ? entries.filter((e) => e.family === options.family) : entries;
        if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no address of the wanted family`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) (callback as unknown as (e: null, a: typeof wanted) => void)(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
  let agent: Agent | undefined;
  return {
    async check(hostname) {
      const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
      let addresses: string[];
      if (ipaddr.isValid(host)) addresses = [host];
      else {
        try {
          addresses = await resolve(host);
        } catch (error) {
          throw new Error(`the host "${host}" could not be resolved (${errorMessage(error)})`);
        }
      }
      const refused = refusal(host, addresses);
      if (refused) throw new Error(refused);
    },
    dispatcher: () => (agent ??= new Agent({ connect: { lookup: connectLookup } })),
    async close() {
      const open = agent;
      agent = undefined;
      await open?.close();
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
