import { lookup as systemLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { fail } from '../../platform/errors.js';

export type ResolvedAddress = { address: string; family: number };
/** Every address a host name resolves to now (the system resolver unless a test brings its own). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

const resolveWithSystem: Resolver = (host) => systemLookup(host, { all: true });

/**
 * The ports fetch refuses to connect to (WHATWG Fetch "bad port"): a receiver there could never be reached, so the
 * address is refused when it is saved instead of failing at every delivery.
 */
const FETCH_BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * IPv6 prefixes whose packets end up at an IPv4 address written inside them, and the byte offsets where it sits
 * (`flipped`: stored inverted, as Teredo stores its client). Such an address is as public as the IPv4 it carries.
 */
const IPV4_CARRIERS = [
  { prefix: '::ffff:0:0/96', at: [12] }, // IPv4-mapped
  { prefix: '::ffff:0:0:0/96', at: [12] }, // IPv4-translated (RFC 6145)
  { prefix: '::/96', at: [12] }, // IPv4-compatible (deprecated, still routed by some stacks)
  { prefix: '64:ff9b::/96', at: [12] }, // NAT64 well-known prefix (RFC 6052)
  { prefix: '2002::/16', at: [2] }, // 6to4
  { prefix: '2001::/32', at: [4], flipped: [12] }, // Teredo: its server, and its client
].map(({ prefix, at, flipped = [] }) => ({ range: ipaddr.IPv6.parseCIDR(prefix), at, flipped }));

function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const carrier = IPV4_CARRIERS.find(({ range }) => address.match(range));
  if (!carrier) return null;
  const bytes = address.toByteArray();
  const at = (offset: number, mask: number) =>
    new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((byte) => byte ^ mask));
  return [...carrier.at.map((offset) => at(offset, 0)), ...carrier.flipped.map((offset) => at(offset, 0xff))];
}

/**
 * Whether an IP address is a public unicast one: loopback, private, link-local, shared (CGNAT), benchmark,
 * documentation, multicast and reserved ranges are not (ipaddr.js knows the IANA registries), and an IPv6 address
 * that carries an IPv4 one (::ffff:127.0.0.1, ::127.0.0.1, 64:ff9b::127.0.0.1, 6to4, Teredo) is judged by it.
 */
export function isPublicAddress(text: string): boolean {
  if (isIP(text) === 0) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const carried = carriedIPv4(address as ipaddr.IPv6);
  if (carried) return carried.every((v4) => v4.range() === 'unicast');
  return address.range() === 'unicast';
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** A send refused because of where it would go; its message is the reason the delivery log shows. */
export class WebhookRefusal extends Error {}

/**
 * Where webhooks may go. A webhook makes the server send requests to an address a user chose, so it is refused
 * unless HTTPS (WEBHOOK_ALLOW_HTTP lifts that) and unless public: a private, loopback or link-local address, written
 * out or resolved from the name, is refused unless WEBHOOK_ALLOW_PRIVATE (docs/security.md § Webhook). A name is
 * resolved once per connection, by {@link lookup}, and the connection goes to the addresses that were checked: a
 * second lookup that could answer differently (DNS rebinding) never happens.
 */
export class WebhookAddressRules {
  constructor(
    private readonly allow: { allowHttp: boolean; allowPrivate: boolean },
    private readonly resolve: Resolver = resolveWithSystem,
  ) {}

  /** At registration and before each send: what the address says by itself; throws the message the user reads. */
  check(raw: string): void {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.allow.allowHttp)) {
      throw fail('接收地址须以 https:// 开头');
    }
    if (url.username || url.password) throw fail('接收地址不能包含用户名或密码');
    if (url.port && FETCH_BAD_PORTS.has(Number(url.port))) {
      throw fail(`接收地址不能使用端口 ${url.port}（出于安全原因，HTTP 客户端禁止连接该端口），请换一个端口`);
    }
    const host = hostOf(url);
    if (this.allow.allowPrivate) return;
    if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host))) {
      throw fail('接收地址不能是内网或本机地址');
    }
  }

  /** Before each send: the reason to refuse the address as written, or null. */
  refusal(raw: string): string | null {
    try {
      this.check(raw);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** The addresses a receiver's name resolves to now, every one checked; throws a {@link WebhookRefusal}. */
  async addressesOf(host: string): Promise<ResolvedAddress[]> {
    const addresses = await this.resolve(host).catch(() => []);
    if (addresses.length === 0) throw new WebhookRefusal(`无法解析接收地址的域名 ${host}`);
    if (!this.allow.allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
      throw new WebhookRefusal('接收地址解析到内网或本机地址，已拒绝发送');
    }
    return addresses;
  }

  /** The `lookup` of a webhook connection (net.connect): resolves once, checks, and hands over what it checked. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.addressesOf(hostname).then(
      (resolved) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = wanted ? resolved.filter((a) => a.family === wanted) : resolved;
        const [first] = addresses;
        if (!first) {
          callback(new WebhookRefusal(`无法解析接收地址的域名 ${hostname}`), '');
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: Error) => callback(err, ''),
    );
  };
}
