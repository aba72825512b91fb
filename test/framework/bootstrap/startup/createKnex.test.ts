import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { createKnex } from '../../../../app/bootstrap/startup/createKnex.js';
import { parseDatabaseUrl } from '../../../../app/framework/db/dialect.js';

describe('createKnex', () => {
  it("should create a SQLite file's folder and answer queries", async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'createKnex-'));
    const file = path.join(root, 'nested', 'deeper', 'db.sqlite');
    const knex = createKnex(parseDatabaseUrl(`sqlite:${file}`), pino({ level: 'silent' }));
    try {
      expect(existsSync(path.dirname(file))).to.equal(true);
      const rows = (await knex.raw('select 1 as one')) as { one: number }[];
      expect(rows[0]!.one).to.equal(1);
      expect(existsSync(file)).to.equal(true);
    } finally {
      await knex.destroy();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
