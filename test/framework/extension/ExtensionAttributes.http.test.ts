import path from 'node:path';
import { expect } from 'chai';
import { DIST_ROOT, PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import type { ModuleSources } from '../../../app/framework/module/ModuleLoader.js';
import { TestApp } from '../../support/testApp.js';
import { ModuleTree, configXml, expectConfigError, fixtureCodeDir, fixtureSourceDir } from '../support/moduleTree.js';

const SOURCES: ModuleSources[] = [
  { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
  { modulesDir: fixtureSourceDir('extension'), codeDir: fixtureCodeDir('extension') },
];
const KEPT = ['Dispensary_Store', 'Dispensary_Integration', 'Fixture_Ext'];
const INVALID = 'Invalid value of "%value" provided for the %fieldName field.';

/** etc/extension_attributes.xml of the fixture module Fixture_Ext: scalar, list and data-interface attributes, one with <resources>. */
describe('Extension attributes', () => {
  let t: TestApp;
  let everything: string;
  let parcelsOnly: string;
  before(async () => {
    t = await TestApp.start({ moduleSources: SOURCES, modules: KEPT });
    everything = await t.integrationToken({ allStores: true });
    parcelsOnly = await t.integrationToken({ allStores: true, resources: ['Fixture_Ext::parcels'] });
  });
  after(async () => t?.stop());

  const get = (token: string) => t.request().get('/rest/V1/fixture/parcels/p1').set('Authorization', `Bearer ${token}`);
  const save = (parcel: unknown) =>
    t.request().post('/rest/V1/fixture/parcels').set('Authorization', `Bearer ${everything}`).send({ parcel });

  describe('when an after plugin on the repository fills them', () => {
    it('should show every kind under extension_attributes, nested ones too, to a caller holding every resource', async () => {
      const res = await get(everything);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        parcel_id: 'p1',
        lines: [
          { sku: 'A', extension_attributes: { gift: true } },
          { sku: 'B', extension_attributes: { gift: false } },
        ],
        extension_attributes: {
          weight: 1.5,
          pieces: 2,
          tags: ['fragile', 'upright'],
          label: { text: 'Handle with care', extension_attributes: { colour: 'red' } },
          secret_code: 'S-42',
        },
      });
    });

    it('should hide the attributes with <resources> from a caller without them, in nested data interfaces too', async () => {
      const res = await get(parcelsOnly);
      expect(res.status).to.equal(200);
      expect(res.body.extension_attributes).to.not.have.property('secret_code');
      expect(res.body.extension_attributes.weight).to.equal(1.5);
      expect(res.body.lines).to.deep.equal([
        { sku: 'A', extension_attributes: {} },
        { sku: 'B', extension_attributes: {} },
      ]);
    });
  });

  describe('when a client sends them', () => {
    it('should accept declared attributes of the right types', async () => {
      const extension = {
        weight: 2,
        pieces: '3',
        tags: ['x'],
        label: { text: 'L', extension_attributes: { colour: 'blue' } },
        secret_code: null,
      };
      const res = await save({ lines: [{ sku: 'A' }], extension_attributes: extension });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.extension_attributes).to.deep.equal({ ...extension, pieces: 3 });
    });

    it('should answer 400 naming each field of a wrong type', async () => {
      const res = await save({
        extension_attributes: {
          weight: 'heavy',
          tags: [1],
          pieces: 1.5,
          label: { extension_attributes: { colour: 5 } },
        },
      });
      expect(res.status).to.equal(400);
      expect(res.body.errors).to.deep.equal([
        {
          message:
            'Error occurred during "extension_attributes" processing. Error occurred during "weight" processing. Invalid type for value: "heavy". Expected Type: "float".',
          parameters: { fieldName: 'parcel.extension_attributes.weight' },
        },
        { message: INVALID, parameters: { fieldName: 'parcel.extension_attributes.pieces', value: '1.5' } },
        {
          message:
            'Error occurred during "extension_attributes" processing. Error occurred during "tags" processing. Invalid type for value: "1". Expected Type: "string".',
          parameters: { fieldName: 'parcel.extension_attributes.tags[0]' },
        },
        {
          message:
            'Error occurred during "extension_attributes" processing. Error occurred during "label" processing. Error occurred during "extension_attributes" processing. Error occurred during "colour" processing. Invalid type for value: "5". Expected Type: "string".',
          parameters: { fieldName: 'parcel.extension_attributes.label.extension_attributes.colour' },
        },
      ]);
    });

    it('should answer 400 on an attribute nobody declared', async () => {
      const res = await save({ extension_attributes: { volume: 3 } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'Property "%fieldName" is not supported. Remove it and try again.',
        parameters: { fieldName: 'parcel.extension_attributes.volume' },
      });
    });
  });

  describe('the schema', () => {
    it('should describe them in the input and in the answer, with their resources', async () => {
      const res = await t.request().get('/rest/default/schema?services=all');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const schema = res.body;
      const post = schema.paths['/V1/fixture/parcels'].post;
      const body = post.parameters.find((p: { in: string }) => p.in === 'body').schema.properties.parcel;
      expect(Object.keys(body.properties.extension_attributes.properties)).to.deep.equal([
        'weight',
        'pieces',
        'tags',
        'label',
        'secret_code',
      ]);
      const answer = schema.paths['/V1/fixture/parcels/{parcelId}'].get.responses['200'].schema;
      expect(answer.properties.extension_attributes.properties.secret_code).to.deep.equal({
        type: 'string',
        'x-resources': ['Fixture_Ext::secret'],
      });
      expect(answer.properties.extension_attributes.properties.tags).to.deep.equal({
        type: 'array',
        items: { type: 'string' },
      });
      expect(
        answer.properties.extension_attributes.properties.label.properties.extension_attributes.properties.colour,
      ).to.deep.equal({ type: 'string' });
      expect(answer.properties.lines.items.properties.extension_attributes.properties.gift).to.deep.equal({
        type: 'boolean',
        'x-resources': ['Fixture_Ext::secret'],
      });
    });
  });
});

describe('extension_attributes.xml mistakes', () => {
  let tree: ModuleTree;
  beforeEach(() => {
    tree = ModuleTree.create('extension');
  });
  afterEach(() => tree.remove());

  const bad = async (body: string, ...fragments: string[]) => {
    tree.module('Fixture_Ext', { files: { 'etc/extension_attributes.xml': configXml(body) } });
    await expectConfigError(
      () => tree.boot('global').then((app) => app.close()),
      tree.path('Fixture_Ext', 'etc/extension_attributes.xml'),
      ...fragments,
    );
  };

  it('should fail at start-up on an unknown element or attribute, naming the file', async () => {
    await bad(
      '<extension_attributes for="Fixture\\Ext\\Api\\Data\\LineInterface"><attribute code="x" type="string"><join reference_table="t"/></attribute></extension_attributes>',
      '<join>',
    );
    await bad(
      '<extension_attributes for="Fixture\\Ext\\Api\\Data\\LineInterface"><attribute code="x" type="string" default="1"/></extension_attributes>',
      '"default"',
    );
  });

  it('should fail at start-up when `for` or a type is not a data interface', async () => {
    await bad(
      '<extension_attributes for="Fixture\\Ext\\Api\\ParcelRepositoryInterface"><attribute code="x" type="string"/></extension_attributes>',
      'Fixture\\Ext\\Api\\ParcelRepositoryInterface',
      'defineDataInterface',
    );
    await bad(
      '<extension_attributes for="Fixture\\Ext\\Api\\Data\\LineInterface"><attribute code="x" type="Fixture\\Ext\\Api\\Data\\Missing"/></extension_attributes>',
      'Fixture\\Ext\\Api\\Data\\Missing',
    );
  });
});
