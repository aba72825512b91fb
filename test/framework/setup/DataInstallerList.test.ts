/**
 * Recurring data installers run at every start-up, and several processes may start at once
 * (test/framework/bin/server.http.test.ts starts three). On PostgreSQL, `insert ... on conflict (id) do
 * update` only absorbs a conflict on its own key: two inserts racing on a second unique key (here
 * catalog_product_attribute.attribute_code) make one fail with a unique violation. CI met exactly
 * that. The list runs the installer again, so that it finds the other process's committed rows.
 */
import { expect } from 'chai';
import { DataInstallerList, type DataInstaller } from '../../../app/framework/setup/DataInstallerList.js';
import { TestApp } from '../../support/testApp.js';

describe('DataInstallerList', function () {
  this.timeout(60_000);

  describe('when several run the product attribute installer at once on an empty table', () => {
    let t: TestApp;
    before(async () => {
      t = await TestApp.start();
    });
    after(async () => t?.stop());

    it('should write every row once and fail none of them', async () => {
      const list = t.app.get<DataInstallerList>('Framework\\Setup\\DataInstallerList');
      const knex = t.app.knex;
      const expected = Number(
        ((await knex('catalog_product_attribute').count({ n: '*' })) as { n: number | string }[])[0]!.n,
      );
      expect(expected).to.be.greaterThan(0);
      for (let round = 0; round < 30; round++) {
        await knex('catalog_product_attribute').del();
        await Promise.all(Array.from({ length: 8 }, () => list.installAll()));
        const rows = (await knex('catalog_product_attribute').select('attribute_code')) as { attribute_code: string }[];
        expect(rows, `round ${round}`).to.have.length(expected);
      }
    });
  });

  describe('when an installer meets a unique violation', () => {
    function failing(times: number): DataInstaller & { calls: number } {
      return {
        calls: 0,
        async install() {
          this.calls++;
          if (this.calls <= times) throw uniqueViolation();
        },
      };
    }

    it('should run it again and go on when it then succeeds', async () => {
      const installer = failing(2);
      const list = new DataInstallerList({ flaky: installer }, { retryDelayMs: 1 });
      expect(await list.installAll()).to.deep.equal(['flaky']);
      expect(installer.calls).to.equal(3);
    });

    it('should give up after five tries and throw the violation', async () => {
      const installer = failing(Infinity);
      const list = new DataInstallerList({ broken: installer }, { retryDelayMs: 1 });
      let thrown: unknown;
      await list.installAll().catch((error: unknown) => (thrown = error));
      expect(thrown).to.be.instanceOf(Error);
      expect(installer.calls).to.equal(5);
    });

    it('should not run it again for any other error', async () => {
      const installer = {
        calls: 0,
        async install() {
          this.calls++;
          throw new Error('boom');
        },
      };
      const list = new DataInstallerList({ broken: installer }, { retryDelayMs: 1 });
      await list.installAll().catch(() => undefined);
      expect(installer.calls).to.equal(1);
    });
  });
});

/** A driver error as PostgreSQL reports a unique violation (SQLSTATE 23505). */
function uniqueViolation(): Error {
  return Object.assign(
    new Error('duplicate key value violates unique constraint "catalog_product_attribute_code_unique"'),
    { code: '23505' },
  );
}
