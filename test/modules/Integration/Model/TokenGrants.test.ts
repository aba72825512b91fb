import { expect } from 'chai';
import {
  AuthorizationException,
  InputException,
  nowTimestamp,
  type AuthorizationRequest,
  type Store,
} from '../../../../app/framework/index.js';
import { StoreRepositoryInterface } from '../../../../modules/Dispensary/Store/Api/StoreRepositoryInterface.js';
import { hashToken } from '../../../../modules/Dispensary/Integration/Model/tokens.js';
import {
  ONE_STORE_ONLY,
  OTHER_STORE,
  TokenGrants,
  type TokenRow,
} from '../../../../modules/Dispensary/Integration/Model/TokenGrants.js';
import { TestApp } from '../../../support/testApp.js';
import { FakeClock } from '../support.js';

const DENIED = "The consumer isn't authorized to access %resources.";

describe('Integration: TokenGrants', () => {
  let t: TestApp;
  let grants: TokenGrants;
  let clock: FakeClock;
  let main: Store;
  let alpha: Store;

  before(async () => {
    clock = new FakeClock();
    t = await TestApp.start({ clock });
    await t.createStore('alpha');
    grants = t.app.get<TokenGrants>('Dispensary\\Integration\\Model\\TokenGrants');
    const stores = t.app.get<StoreRepositoryInterface>(StoreRepositoryInterface);
    main = (await stores.getStoreByCode('default'))!;
    alpha = (await stores.getStoreByCode('alpha'))!;
  });
  after(async () => t?.stop());

  const row = (overrides: Partial<TokenRow> = {}): TokenRow => ({
    token_id: 7,
    kind: 'integration',
    name: 'app',
    token_hash: hashToken('a'.repeat(32)),
    store_id: null,
    resources: null,
    admin_user_id: null,
    expires_at: null,
    revoked_at: null,
    active_name: 'app',
    admin_is_active: null,
    ...overrides,
  });
  const request = (overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest => ({
    authorization: undefined,
    resources: ['Dispensary_Store::stores'],
    store: main,
    defaultScope: false,
    ...overrides,
  });
  const refusal = (fn: () => unknown): AuthorizationException => {
    try {
      fn();
    } catch (error) {
      expect(error).to.be.instanceOf(AuthorizationException);
      return error as AuthorizationException;
    }
    expect.fail('expected an AuthorizationException');
  };
  const inputErrors = async (promise: Promise<unknown>): Promise<string[]> => {
    const error = await promise.then(
      () => expect.fail('expected an InputException'),
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(InputException);
    return (error as InputException).errors.map((e) => e.phrase);
  };

  describe('resolve', () => {
    it('should trim the name, bind to the store given, and drop repeated resources', async () => {
      const spec = await grants.resolve({
        name: '  app  ',
        store: 'alpha',
        resources: ['Dispensary_Store::stores', 'Dispensary_Store::stores'],
      });
      expect(spec).to.deep.equal({ name: 'app', storeId: alpha.id, resources: ['Dispensary_Store::stores'] });
    });

    it('should grant everything (resources null) for no or an empty resource list, for all stores', async () => {
      expect(await grants.resolve({ name: 'a', allStores: true })).to.deep.equal({
        name: 'a',
        storeId: null,
        resources: null,
      });
      expect(await grants.resolve({ name: 'a', allStores: true, resources: [] })).to.deep.equal({
        name: 'a',
        storeId: null,
        resources: null,
      });
    });

    it('should refuse a blank name, both or neither scope, an unknown store or ACL resource', async () => {
      expect(await inputErrors(grants.resolve({ name: '   ', allStores: true }))).to.have.length(1);
      const scope = 'Give either a store code or all stores, not both or neither.';
      expect(await inputErrors(grants.resolve({ name: 'a', store: 'alpha', allStores: true }))).to.deep.equal([scope]);
      expect(await inputErrors(grants.resolve({ name: 'a' }))).to.deep.equal([scope]);
      expect(await inputErrors(grants.resolve({ name: 'a', store: 'nowhere' }))).to.deep.equal([
        'The store code "%storeCode" is unknown.',
      ]);
      expect(
        await inputErrors(grants.resolve({ name: 'a', allStores: true, resources: ['Dispensary_Store::nope'] })),
      ).to.deep.equal(['The ACL resource "%resource" is unknown.']);
    });
  });

  describe('insert and findByHash', () => {
    it('should store the grant and find it by its hash only', async () => {
      const hash = hashToken('insertedtoken000000000000000000a');
      const id = await grants.insert(
        t.app.knex,
        { name: 'stored', storeId: alpha.id, resources: ['Dispensary_Store::stores'] },
        'integration',
        hash,
        'dup',
      );
      const found = await grants.findByHash(hash);
      expect(found).to.include({
        token_id: id,
        kind: 'integration',
        name: 'stored',
        active_name: 'stored',
        store_id: alpha.id,
        revoked_at: null,
      });
      expect(JSON.parse(found!.resources!)).to.deep.equal(['Dispensary_Store::stores']);
      expect(await grants.findByHash(hashToken('insertedtoken000000000000000000b'))).to.equal(undefined);
    });

    it('should refuse a second active token under one name with the phrase given, and keep the first', async () => {
      const spec = { name: 'twice', storeId: null, resources: null };
      await grants.insert(t.app.knex, spec, 'integration', hashToken('twice1'), 'dup');
      const phrases = await inputErrors(
        grants.insert(t.app.knex, spec, 'oauth', hashToken('twice2'), 'Name "%name" is taken.'),
      );
      expect(phrases).to.deep.equal(['Name "%name" is taken.']);
      expect(await grants.findByHash(hashToken('twice2'))).to.equal(undefined);
      expect((await grants.findByHash(hashToken('twice1')))?.name).to.equal('twice');
    });
  });

  describe('grant', () => {
    it('should answer the caller of an all-stores token that holds every resource', () => {
      const caller = grants.grant(row(), request());
      expect(caller).to.include({ type: 'integration', id: 7, name: 'app', allStores: true });
      expect(caller.allows!('Dispensary_Catalog::products')).to.equal(true);
    });

    it('should refuse a revoked, expired, or no longer active token as if there were none', () => {
      const past = nowTimestamp(new Date(clock.now().getTime() - 1000));
      const now = nowTimestamp(clock.now());
      const future = nowTimestamp(new Date(clock.now().getTime() + 60_000));
      for (const bad of [
        row({ revoked_at: past }),
        row({ active_name: null }),
        row({ expires_at: past }),
        row({ expires_at: now }),
      ]) {
        expect(refusal(() => grants.grant(bad, request())).phrase).to.equal(DENIED);
      }
      expect(grants.grant(row({ expires_at: future }), request()).name).to.equal('app');
    });

    it('should follow the clock for expiry', () => {
      const expiring = row({
        kind: 'admin',
        admin_user_id: 3,
        admin_is_active: 1,
        active_name: null,
        expires_at: nowTimestamp(new Date(clock.now().getTime() + 5000)),
      });
      expect(grants.grant(expiring, request())).to.include({ type: 'admin', id: 3, allStores: true });
      clock.advance(5000);
      refusal(() => grants.grant(expiring, request()));
    });

    it('should refuse an admin token of a deactivated user, whatever the driver answers for is_active', () => {
      for (const active of [0, false, '0', 'f', null]) {
        refusal(() => grants.grant(row({ kind: 'admin', admin_user_id: 3, admin_is_active: active }), request()));
      }
      for (const active of [1, true, '1', 't']) {
        expect(
          grants.grant(row({ kind: 'admin', admin_user_id: 3, admin_is_active: active }), request()).type,
        ).to.equal('admin');
      }
    });

    it('should keep a store-bound token to its store, and out of routes that change data every store shares', () => {
      const bound = row({ store_id: alpha.id });
      expect(grants.grant(bound, request({ store: alpha }))).to.include({ allStores: false });
      const other = refusal(() => grants.grant(bound, request({ store: main })));
      expect([other.phrase, other.parameters]).to.deep.equal([OTHER_STORE, { storeCode: 'default' }]);
      const global = refusal(() => grants.grant(bound, request({ store: alpha, globalScope: true })));
      expect(global.phrase).to.equal(ONE_STORE_ONLY);
      expect(grants.grant(row(), request({ store: alpha, globalScope: true })).allStores).to.equal(true);
    });

    it('should require every resource of the route, a parent in acl.xml granting its children, `self` always', () => {
      const eventing = row({ resources: JSON.stringify(['Dispensary_Eventing::eventing']) });
      const caller = grants.grant(eventing, request({ resources: ['Dispensary_Eventing::eventing_list', 'self'] }));
      expect(caller.allows!('Dispensary_Eventing::eventing_subscribe')).to.equal(true);
      expect(caller.allows!('Dispensary_Store::stores')).to.equal(false);
      const both = request({ resources: ['Dispensary_Eventing::eventing_list', 'Dispensary_Store::stores'] });
      expect(refusal(() => grants.grant(eventing, both)).parameters).to.deep.equal({
        resources: 'Dispensary_Eventing::eventing_list, Dispensary_Store::stores',
      });
      // A child does not grant its parent.
      const child = row({ resources: JSON.stringify(['Dispensary_Eventing::eventing_list']) });
      refusal(() => grants.grant(child, request({ resources: ['Dispensary_Eventing::eventing'] })));
      // The root grants everything below it.
      const root = row({ resources: JSON.stringify(['Magento_Backend::admin']) });
      expect(grants.grant(root, request({ resources: ['Dispensary_Catalog::products'] })).name).to.equal('app');
    });
  });
});
