import { expect } from 'chai';
import { Dispensary, INVALID, inputErrors, REQUIRED, UNSUPPORTED } from './support.js';

describe('Recommendation: patients', () => {
  let d: Dispensary;
  before(async () => {
    d = await Dispensary.start();
    await d.t.createStore('alpha');
    await d.t.createStore('beta');
  });
  after(async () => d?.stop());

  const create = (scope: string, patient: unknown) => d.call('post', scope, '/dispensary/patient').send({ patient });

  describe('when a patient is created', () => {
    it('should answer the patient with an integer id in the store of the scope', async () => {
      const res = await create('alpha', { firstname: ' Ada ', lastname: 'Lovelace', email: 'ada@example.com' });
      expect(res.status).to.equal(200);
      expect(res.body).to.have.all.keys('patient_id', 'firstname', 'lastname', 'email', 'store_id');
      expect(res.body.patient_id).to.be.a('number');
      expect(res.body).to.include({ firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' });
      const stores = await d.call('get', 'all', '/store/storeViews');
      const alpha = stores.body.find((s: { code: string }) => s.code === 'alpha');
      expect(res.body.store_id).to.equal(alpha.id);
    });

    it('should create it in the default store under /rest/V1', async () => {
      const res = await create('', { firstname: 'A', lastname: 'B', email: 'default-scope@example.com' });
      expect(res.status).to.equal(200);
      expect(res.body.store_id).to.equal(1);
    });

    it('should answer 400 for a second patient with the same email in the same store, whatever its case', async () => {
      expect((await create('alpha', { firstname: 'A', lastname: 'B', email: 'twice@example.com' })).status).to.equal(
        200,
      );
      const res = await create('alpha', { firstname: 'C', lastname: 'D', email: ' TWICE@example.com' });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        message: 'A patient with the email "%email" already exists in this store.',
        parameters: { email: 'TWICE@example.com' },
      });
    });

    it('should accept the same email in another store', async () => {
      expect((await create('alpha', { firstname: 'A', lastname: 'B', email: 'both@example.com' })).status).to.equal(
        200,
      );
      expect((await create('beta', { firstname: 'A', lastname: 'B', email: 'both@example.com' })).status).to.equal(200);
    });

    it('should answer 400 under the all scope', async () => {
      const res = await create('all', { firstname: 'A', lastname: 'B', email: 'all@example.com' });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.contain('"all" scope');
    });

    it('should answer 400 naming every missing field', async () => {
      const errors = inputErrors(await create('alpha', {}));
      expect(errors).to.deep.equal(
        ['patient.firstname', 'patient.lastname', 'patient.email'].map((fieldName) => ({
          message: REQUIRED,
          parameters: { fieldName },
        })),
      );
    });

    it('should answer 400 without a patient at all', async () => {
      const res = await d.call('post', 'alpha', '/dispensary/patient').send({});
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: REQUIRED, parameters: { fieldName: 'patient' } });
    });

    it('should answer 400 for an invalid email, an empty name and an unknown field', async () => {
      const errors = inputErrors(
        await create('alpha', { firstname: ' ', lastname: 'B', email: 'not-an-email', patient_id: 5 }),
      );
      expect(errors).to.deep.include({
        message: INVALID,
        parameters: { fieldName: 'patient.email', value: 'not-an-email' },
      });
      expect(errors.map((e) => e.parameters.fieldName)).to.have.members([
        'patient.firstname',
        'patient.email',
        'patient.patient_id',
      ]);
      expect(errors).to.deep.include({ message: UNSUPPORTED, parameters: { fieldName: 'patient.patient_id' } });
    });
  });

  describe('when a patient is read', () => {
    let id: number;
    before(async () => {
      id = (await create('alpha', { firstname: 'Read', lastname: 'Me', email: 'read@example.com' })).body.patient_id;
    });

    it('should answer it under its own store and under all', async () => {
      for (const scope of ['alpha', 'all']) {
        const res = await d.call('get', scope, `/dispensary/patient/${id}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ patient_id: id, email: 'read@example.com' });
      }
    });

    it('should answer 404 under another store, even with an all-stores token', async () => {
      const res = await d.call('get', 'beta', `/dispensary/patient/${id}`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({
        message: 'No such entity with %fieldName = %fieldValue',
        parameters: { fieldName: 'patient_id', fieldValue: id },
      });
    });

    it('should answer 404 for an id that does not exist, however large', async () => {
      for (const missing of ['999999', '99999999999999']) {
        const res = await d.call('get', 'alpha', `/dispensary/patient/${missing}`);
        expect(res.status).to.equal(404);
      }
    });

    it('should answer 400 for an id that is not a positive whole number', async () => {
      for (const bad of ['abc', '0', '-1', '1.5']) {
        const res = await d.call('get', 'alpha', `/dispensary/patient/${bad}`);
        expect(res.status, bad).to.equal(400);
        expect(res.body.message).to.equal(INVALID);
      }
    });
  });
});
