import { BlockList, isIP } from 'node:net';

export const ADDRESS_REFUSED = '地址不在允许的范围内（BACKEND_ALLOWED_HOSTS）';

/**
 * Which addresses registered backends may point at (BACKEND_ALLOWED_HOSTS): host names, `*.domain` patterns,
 * IP addresses and CIDR ranges. IP rules match IP addresses written in the URL, and name rules match names:
 * names are not resolved here, since what a name resolves to can change between the check and the request.
 * No rules = any address.
 */
export class BackendAddressRules {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ips = new BlockList();
  private readonly open: boolean;

  constructor(rules: readonly string[]) {
    this.open = rules.length === 0;
    for (const rule of rules.map((r) => r.trim().toLowerCase()).filter(Boolean)) {
      const [address, prefix] = rule.split('/');
      const family = isIP(address ?? '');
      if (family && prefix !== undefined) this.ips.addSubnet(address!, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
      else if (family) this.ips.addAddress(address!, family === 6 ? 'ipv6' : 'ipv4');
      else if (rule.startsWith('*.')) this.suffixes.push(rule.slice(1));
      else this.names.add(rule);
    }
  }

  allows(baseUrl: string): boolean {
    if (this.open) return true;
    let host: string;
    try {
      host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    } catch {
      return false;
    }
    const family = isIP(host);
    if (family) return this.ips.check(host, family === 6 ? 'ipv6' : 'ipv4');
    return this.names.has(host) || this.suffixes.some((suffix) => host.endsWith(suffix));
  }
}
