/**
 * `GET /swagger`: a browsable API page, as Magento serves one, built on Swagger UI from the
 * `swagger-ui-dist` package. Every file comes from the package on this machine (the page never
 * reaches the internet: no CDN, no online validator, and a Content-Security-Policy that allows
 * only this origin). `/swagger?store=<code>` shows the routes of that store scope, read from
 * `/rest/<code>/schema`; the Authorize button takes a token (`Bearer <token>`), and "Try it out"
 * calls the API from the browser.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type express from 'express';
import { expressModule } from './expressModule.js';

/** The package's directory, found without loading its 1.5 MB bundle into the server. */
const DIST_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Only what the page uses; the package's own initializer (which points at a demo API online) is never served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Dispensary REST API</title>
  <link rel="stylesheet" href="/swagger/swagger-ui.css">
  <link rel="icon" type="image/png" href="/swagger/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="/swagger/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger/swagger-ui-bundle.js"></script>
  <script src="/swagger/init.js"></script>
</body>
</html>
`;

// The store scope comes from ?store=; anything that is not a store code falls back to `default`
// (the schema route itself answers 400 for an unknown code, and the page shows that).
const INIT = `window.addEventListener('load', function () {
  var store = new URLSearchParams(window.location.search).get('store') || 'default';
  if (!/^[a-z][a-z0-9_]{0,31}$/.test(store)) store = 'default';
  window.ui = SwaggerUIBundle({
    url: '/rest/' + store + '/schema?services=all',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    persistAuthorization: false
  });
});
`;

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

export function swaggerPage(): express.Router {
  const router = expressModule().Router({ strict: false });
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/init.js', (_req, res) => {
    res.type('text/javascript; charset=utf-8').send(INIT);
  });
  router.get('/:asset', (req, res, next) => {
    const type = Object.prototype.hasOwnProperty.call(ASSETS, req.params.asset) ? ASSETS[req.params.asset] : undefined;
    if (!type) return next();
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.sendFile(path.join(DIST_DIR, req.params.asset));
  });
  return router;
}
