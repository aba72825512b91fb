import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { TestApp } from '../../support/testApp.js';

/** Debian's chromium package; `.ci/run` installs it when missing. */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('GET /swagger: the browsable API page', function () {
  this.timeout(90_000);
  let t: TestApp;
  let server: Server;
  let base: string;

  before(async () => {
    t = await TestApp.start();
    await t.createStore('north_clinic');
    server = t.http.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.stop();
  });

  describe('when fetched over HTTP', () => {
    it('should serve the page, its script and the package files, with a policy that allows only this origin', async () => {
      const page = await t.request().get('/swagger');
      expect(page.status).to.equal(200);
      expect(page.type).to.equal('text/html');
      expect(page.headers['content-security-policy']).to.contain("connect-src 'self'");
      expect(page.text).to.contain('/swagger/swagger-ui-bundle.js');
      expect(page.text).not.to.match(/https?:\/\//);
      const init = await t.request().get('/swagger/init.js');
      expect(init.text).to.contain("'/rest/' + store + '/schema?services=all'");
      expect(init.text).to.contain('validatorUrl: null');
      for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']) {
        expect((await t.request().get(`/swagger/${asset}`)).status, asset).to.equal(200);
      }
    });

    it("should not serve the package's own initializer (a demo API online), nor other files", async () => {
      for (const asset of ['swagger-initializer.js', 'index.html', 'package.json', '..%2Fpackage.json']) {
        expect((await t.request().get(`/swagger/${asset}`)).status, asset).to.equal(404);
      }
    });
  });

  describe('when opened in a headless browser', () => {
    if (!existsSync(CHROMIUM) && process.env.CI !== 'true') {
      it(`is pending: ${CHROMIUM} is missing (apt-get install -y chromium; with CI=true this test fails instead)`);
      return;
    }

    let context: BrowserContext;
    let page: Page;
    let userDataDir: string;
    const outside: string[] = [];

    before(async () => {
      if (!existsSync(CHROMIUM))
        throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium)`);
      userDataDir = mkdtempSync(path.join(os.tmpdir(), 'dispensary-chromium-'));
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: FLAGS,
      });
      page = context.pages()[0] ?? (await context.newPage());
      page.on('request', (req) => {
        if (!req.url().startsWith(base) && !req.url().startsWith('data:')) outside.push(req.url());
      });
    });
    after(async () => {
      await context?.close();
      if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    });

    it('should load, list the dispensary routes of the chosen store, and fetch nothing from elsewhere', async () => {
      await page.goto(`${base}/swagger?store=north_clinic`);
      await page
        .locator('.opblock-summary-path[data-path="/V1/dispensary/recommendation/{recommendationId}/item"]')
        .first()
        .waitFor();
      const paths = await page
        .locator('.opblock-summary-path')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-path')));
      for (const route of [
        '/V1/dispensary/patient',
        '/V1/dispensary/patient/{patientId}/recommendation',
        '/V1/store/storeViews',
        '/V1/store/websites',
        '/V1/products',
      ]) {
        expect(paths, route).to.include(route);
      }
      expect(await page.locator('.base-url').first().textContent()).to.contain('/rest/north_clinic');
      expect(outside).to.deep.equal([]);
    });

    it('should let a pasted token try GET /V1/store/storeViews and show the 200 answer', async () => {
      const token = await t.integrationToken({ store: 'north_clinic' });
      await page.locator('button.authorize').first().click();
      const bearer = page.locator('.auth-container').filter({ hasText: 'Bearer' }).first();
      await bearer.locator('input').first().fill(`Bearer ${token}`);
      await bearer.locator('button.authorize').click();
      await page.locator('.modal-ux button.btn-done, .modal-ux .close-modal').first().click();

      const operation = page
        .locator('.opblock-get')
        .filter({ has: page.locator('.opblock-summary-path[data-path="/V1/store/storeViews"]') })
        .first();
      await operation.locator('.opblock-summary').first().click();
      await operation.locator('button.try-out__btn').click();
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor();
      expect((await status.textContent())?.trim()).to.equal('200');
      const body = await operation.locator('.live-responses-table .response-col_description pre').first().textContent();
      expect(JSON.parse(body ?? 'null')).to.deep.equal([
        { id: 2, code: 'north_clinic', name: 'NORTH_CLINIC', website_id: 1, store_group_id: 1, is_active: 1 },
      ]);
      expect(outside).to.deep.equal([]);
    });
  });
});
