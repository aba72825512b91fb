/**
 * `Authorization: OAuth realm="x", oauth_consumer_key="...", ...` (RFC 5849 §3.5.1): the
 * parameters, percent-decoded. Null when the header is not OAuth, is malformed, or repeats a
 * parameter (a repeated oauth_* parameter is refused rather than guessed at).
 */
const SCHEME = /^\s*OAuth\s+/i;
const PARAM = /\s*([A-Za-z0-9_.~%-]+)\s*=\s*(?:"([^"]*)"|([^,\s"]*))\s*(?:,|$)/y;

export function isOAuthHeader(header: string | undefined): header is string {
  return header !== undefined && SCHEME.test(header);
}

export function parseOAuthHeader(header: string): Map<string, string> | null {
  const text = header.replace(SCHEME, '');
  const params = new Map<string, string>();
  let index = 0;
  while (index < text.length) {
    PARAM.lastIndex = index;
    const match = PARAM.exec(text);
    if (!match || PARAM.lastIndex === index) return null;
    index = PARAM.lastIndex;
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(match[1]!);
      value = decodeURIComponent(match[2] ?? match[3] ?? '');
    } catch {
      return null;
    }
    if (params.has(name)) return null;
    params.set(name, value);
  }
  return params;
}
