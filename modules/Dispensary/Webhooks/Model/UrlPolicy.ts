import { isIP } from 'node:net';
import { FrameworkServices, inject, injectable, LocalizedException } from '#framework';

export interface WebhookUrlSettings {
  readonly webhookAllowedHosts: readonly string[] | null;
}

/** Cloud metadata services: never called, whatever WEBHOOK_ALLOWED_HOSTS says. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', 'metadata.google.internal']);

/**
 * Which URLs webhooks and events may call: http or https only; with WEBHOOK_ALLOWED_HOSTS, only
 * those hosts; the cloud metadata address never (checked again on the resolved address when the
 * call is made, so a host name that resolves to it is refused too: HookCaller.ts).
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

  /** The metadata addresses and the whole IPv4 link-local range, however spelled (`::ffff:a9fe:a9fe` is 169.254.169.254). */
  static isMetadataAddress(host: string): boolean {
    const bare = unmapIpv4(host.toLowerCase());
    return METADATA_ADDRESSES.has(bare) || (isIP(bare) === 4 && bare.startsWith('169.254.'));
  }
}

/** `::ffff:1.2.3.4` and `::ffff:102:304` (how URL writes it) -> `1.2.3.4`; anything else unchanged. */
function unmapIpv4(host: string): string {
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/.exec(host);
  if (!mapped) return host;
  const rest = mapped[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return host;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
