import ipaddr from 'ipaddr.js';
import { FrameworkServices, inject, injectable, LocalizedException } from '#framework';

export interface WebhookUrlSettings {
  readonly webhookAllowedHosts: readonly string[] | null;
}

/** Cloud metadata services: never called, whatever WEBHOOK_ALLOWED_HOSTS says (with the rest of 169.254.0.0/16). */
const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'].map((a) =>
  ipaddr.parse(a).toString(),
);
const METADATA_NAMES = new Set(['metadata.google.internal']);
const LINK_LOCAL_V4 = ipaddr.parseCIDR('169.254.0.0/16');

/**
 * Which URLs webhooks and events may call: http or https only; with WEBHOOK_ALLOWED_HOSTS, only
 * those hosts; the cloud metadata address never (checked again on the resolved address when the
 * call is made, so a host name that resolves to it is refused too: HttpSender.ts).
 */
@injectable()
export class UrlPolicy {
  constructor(@inject(FrameworkServices.DeploymentConfig) private readonly settings: WebhookUrlSettings) {}

  /** The parsed URL, or a 400 saying why not. */
  check(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new LocalizedException('The webhook URL "%url" is not a valid URL.', { url: raw.slice(0, 200) });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new LocalizedException('The webhook URL must use http or https.');
    }
    if (url.username || url.password)
      throw new LocalizedException('The webhook URL must not carry credentials: use headers.');
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (UrlPolicy.isMetadataAddress(host))
      throw new LocalizedException('The webhook URL names a cloud metadata address, which is never called.');
    const allowed = this.settings.webhookAllowedHosts;
    if (allowed && !allowed.includes(host))
      throw new LocalizedException('The webhook host "%host" is not in WEBHOOK_ALLOWED_HOSTS.', { host });
    return url;
  }

  /**
   * The metadata names and addresses and the whole IPv4 link-local range, however spelled: a name
   * with trailing dots or in upper case, and every IPv6 address that embeds an IPv4 one
   * (ipaddr.js parses every spelling: `::a9fe:a9fe`, `::169.254.169.254`, `::ffff:0:a9fe:a9fe`,
   * `64:ff9b::a9fe:a9fe`, `2002:a9fe:a9fe::`, a zone id...).
   */
  static isMetadataAddress(host: string): boolean {
    const name = host
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.+$/, '');
    if (METADATA_NAMES.has(name)) return true;
    if (!ipaddr.isValid(name)) return false;
    const address = ipaddr.parse(name);
    if (METADATA_ADDRESSES.includes(address.toString())) return true;
    const ipv4s = address.kind() === 'ipv4' ? [address as ipaddr.IPv4] : embeddedIpv4(address as ipaddr.IPv6);
    return ipv4s.some((v4) => METADATA_ADDRESSES.includes(v4.toString()) || v4.match(LINK_LOCAL_V4));
  }
}

/**
 * Every IPv4 address an IPv6 address can carry to a host that translates or tunnels it:
 * IPv4-compatible (::/96), IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96,
 * RFC 2765), NAT64 (64:ff9b::/96, and 64:ff9b:1::/48 at each RFC 6052 prefix length), 6to4
 * (2002::/16) and Teredo (2001::/32: the server, and the client's obfuscated address).
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const b = address.toByteArray();
  const v4 = (...at: number[]) => new ipaddr.IPv4(at.map((i) => b[i]!));
  const zero = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  const found: ipaddr.IPv4[] = [];
  if (zero(0, 5) && (p[5] === 0 || p[5] === 0xffff)) found.push(v4(12, 13, 14, 15));
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) found.push(v4(12, 13, 14, 15));
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) found.push(v4(12, 13, 14, 15));
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) {
    found.push(v4(6, 7, 9, 10), v4(7, 9, 10, 11), v4(9, 10, 11, 12), v4(12, 13, 14, 15));
  }
  if (p[0] === 0x2002) found.push(v4(2, 3, 4, 5));
  if (p[0] === 0x2001 && p[1] === 0) {
    found.push(v4(4, 5, 6, 7), new ipaddr.IPv4([12, 13, 14, 15].map((i) => b[i]! ^ 0xff)));
  }
  return found;
}
