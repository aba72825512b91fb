import type { CalledRequest } from '#framework';

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' };
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/**
 * The base string URI of RFC 5849 §3.4.1.2: scheme and host in lower case, the port only when it
 * is not the scheme's default, and the path as the client sent it. Null without a usable Host.
 */
export function baseStringUri(request: CalledRequest): string | null {
  const scheme = request.scheme.toLowerCase();
  const match = HOST.exec(request.host ?? '');
  if (!match || (scheme !== 'http' && scheme !== 'https')) return null;
  const host = match[1]!.toLowerCase();
  const port = match[2] && match[2] !== DEFAULT_PORTS[scheme] ? `:${match[2]}` : '';
  return `${scheme}://${host}${port}${request.path || '/'}`;
}

/**
 * The query parameters as RFC 5849 §3.4.1.3.1 takes them: decoded as
 * application/x-www-form-urlencoded (`+` is a space), every pair kept in order, repeated and
 * bracketed names (`id[]`, `searchCriteria[pageSize]`) exactly as sent. oauth-sign encodes them
 * again (§3.4.1.3.2) and sorts them.
 */
export function queryParameters(rawQuery: string): [string, string][] {
  return [...new URLSearchParams(rawQuery)];
}
