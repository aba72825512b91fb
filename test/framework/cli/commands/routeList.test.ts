/** commands/routeList.ts (`dev:route:list`) through the real CLI entry, on Fixture_Shop's webapi.xml. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ModuleTree, fixtureSourceDir } from '../../support/moduleTree.js';

const SHOP = 'Fixture\\Shop\\Api\\ShopInterface';

describe('dev:route:list', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('webapi');
  });
  afterEach(() => tree.remove());

  it('should list every REST route of the enabled modules with its service method and resources', async () => {
    tree.fixtureModule('webapi', 'Fixture_Shop');
    const { code, out, err } = await tree.cli(['dev:route:list']);
    expect(err).to.deep.equal([]);
    expect(code).to.equal(0);
    const declared = readFileSync(
      path.join(fixtureSourceDir('webapi'), 'Fixture', 'Shop', 'etc', 'webapi.xml'),
      'utf8',
    ).match(/<route /g)!.length;
    expect(out).to.have.length(declared);
    expect(out).to.include(`GET    /rest/<scope>/V1/fixture/items/:sku  ${SHOP}::getItem  [Fixture_Shop::read]`);
    expect(out).to.include(`POST   /rest/<scope>/V1/fixture/orders  ${SHOP}::createOrder  [Fixture_Shop::write]`);
    expect(out).to.include(
      `GET    /rest/<scope>/V1/fixture/whoami  ${SHOP}::whoami  [Fixture_Shop::read, Fixture_Shop::write]`,
    );
  });

  it('should leave out the routes of a disabled module', async () => {
    tree.fixtureModule('webapi', 'Fixture_Shop').setEnabled('Fixture_Shop', false);
    const { code, out } = await tree.cli(['dev:route:list']);
    expect(code).to.equal(0);
    expect(out).to.deep.equal([]);
  });
});
