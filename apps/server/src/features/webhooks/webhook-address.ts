import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { fail } from '../../platform/errors.js';

/** Loopback, private, link-local, shared, benchmark, multicast and reserved ranges: never a public receiver. */
const privateRanges = new BlockList();
for (const [address, prefix] of [
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
] as const) {
  privateRanges.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(address, prefix, 'ipv6');
}

function isPrivateAddress(address: string): boolean {
  // IPv4 written as IPv6 (::ffff:10.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const family = isIP(address);
  return family !== 0 && privateRanges.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Where webhooks may go. A webhook makes the server send requests to an address a user chose, so it is refused
 * unless HTTPS (WEBHOOK_ALLOW_HTTP lifts that) and unless public: a private, loopback or link-local address,
 * written out or resolved from the name before each send, is refused unless WEBHOOK_ALLOW_PRIVATE
 * (docs/security.md § Webhook).
 */
export class WebhookAddressRules {
  constructor(private readonly allow: { allowHttp: boolean; allowPrivate: boolean }) {}

  /** At registration: the scheme and a host written as an address; throws the message the user reads. */
  check(raw: string): void {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.allow.allowHttp)) {
      throw fail('接收地址须以 https:// 开头');
    }
    if (url.username || url.password) throw fail('接收地址不能包含用户名或密码');
    const host = hostOf(url);
    if (!this.allow.allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host))) {
      throw fail('接收地址不能是内网或本机地址');
    }
  }

  /** Before each send: the addresses the name resolves to now. The reason to refuse, or null. */
  async refusal(raw: string): Promise<string | null> {
    try {
      this.check(raw);
    } catch (err) {
      return (err as Error).message;
    }
    if (this.allow.allowPrivate) return null;
    const host = hostOf(new URL(raw));
    if (isIP(host)) return null;
    const addresses = await lookup(host, { all: true }).catch(() => null);
    if (!addresses || addresses.length === 0) return `无法解析接收地址的域名 ${host}`;
    return addresses.some((a) => isPrivateAddress(a.address)) ? '接收地址解析到内网或本机地址，已拒绝发送' : null;
  }
}
