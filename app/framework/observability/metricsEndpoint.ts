/**
 * `GET /metrics` in Prometheus' text format. Metrics name routes and reveal load, so they are not
 * public: with METRICS_TOKEN set, a scraper sends `Authorization: Bearer <token>` (compared in
 * constant time); without it, only a client on the loopback interface is answered: the socket's
 * peer must be loopback, and so must the client a trusted proxy names (Express's `req.ip` under
 * TRUST_PROXY), so a remote client behind a loopback proxy is refused, and X-Forwarded-For can
 * only make a caller less trusted, never more.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Metrics } from './Metrics.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(a: string, b: string): boolean {
  // Hash first: timingSafeEqual needs equal lengths, and the length must not leak either.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export function metricsEndpoint(metrics: Metrics, token: string | undefined) {
  return async (req: Request, res: Response): Promise<void> => {
    if (token) {
      const header = req.headers.authorization ?? '';
      const sent = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
      if (!sameSecret(sent, token)) {
        res.status(401).json({ message: 'The metrics need the bearer token set in METRICS_TOKEN.' });
        return;
      }
    } else if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || !LOOPBACK.has(req.ip ?? '')) {
      res.status(403).json({ message: 'The metrics are served to loopback clients only unless METRICS_TOKEN is set.' });
      return;
    }
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  };
}
