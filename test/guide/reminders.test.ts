import path from 'node:path';
import { expect } from 'chai';
import { DIST_ROOT, PROJECT_ROOT } from '../../app/bootstrap/config/paths.js';
import { PROJECT_MODULE_SOURCES } from '../support/modules.js';
import { TestApp } from '../support/testApp.js';

// The guide's module lives among the test fixtures. Yours, in modules/, needs only TestApp.start({ modules: { Acme_Reminders: true } }).
const GUIDE_MODULES = { modulesDir: path.join(PROJECT_ROOT, 'test', 'fixtures', 'guide', 'modules'), codeDir: path.join(DIST_ROOT, 'test', 'fixtures', 'guide', 'modules') };

describe('Acme_Reminders (the module of docs/writing-a-module.md)', () => {
  let t: TestApp;
  let token: string;
  let patientId: number;
  before(async () => {
    // A database of its own, migrated; the project's modules and ours, whatever else is in modules/ or etc/config.json.
    t = await TestApp.start({ moduleSources: [PROJECT_MODULE_SOURCES, GUIDE_MODULES], modules: { Acme_Reminders: true } });
    token = await t.integrationToken({ allStores: true });
    await call('post', '/rest/all/V1/products').send({ product: { sku: 'VIT-D3', name: 'Vitamin D3' } });
    const patient = await call('post', '/rest/default/V1/dispensary/patient').send({ patient: { firstname: 'Ada', lastname: 'L', email: 'ada@example.com' } });
    patientId = patient.body.patient_id;
  });
  after(async () => t?.stop());

  const call = (method: 'get' | 'post', url: string) => t.request()[method](url).set('Authorization', `Bearer ${token}`);
  const search = (store: string, query: string) => call('get', `/rest/${store}/V1/acme/reminders/search?${query}`);

  it('should save a reminder through the route: tidied by the plugin, formatted by the policy, store from the scope', async () => {
    const res = await call('post', '/rest/default/V1/acme/reminders').send({
      reminder: { patient_id: patientId, store_id: 99, message: '  Call   the patient ', extension_attributes: { channels: ['email'] } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ patient_id: patientId, store_id: 1, message: 'Reminder: Call the patient' });
    expect(res.body.extension_attributes).to.deep.equal({ channels: ['email'] });
    expect((await call('get', `/rest/default/V1/acme/reminders/${res.body.reminder_id}`)).body.message).to.equal('Reminder: Call the patient');
  });

  it('should answer 400 naming an extension attribute of the wrong type', async () => {
    const res = await call('post', '/rest/default/V1/acme/reminders').send({ reminder: { patient_id: patientId, message: 'x', extension_attributes: { channels: [7] } } });
    expect(res.status).to.equal(400);
    expect(res.body.parameters.fieldName).to.equal('reminder.extension_attributes.channels[0]');
  });

  it('should schedule a follow-up when a recommendation is saved (observer) and count it on the recommendation (extension attribute)', async () => {
    const created = await call('post', `/rest/default/V1/dispensary/patient/${patientId}/recommendation`).send({ recommendation: { items: ['VIT-D3'] } });
    expect(created.status).to.equal(200);
    const listed = await t.cli('acme:reminder:list', '--patient', String(patientId));
    expect(listed.out.join('\n')).to.contain(`Reminder: Follow up on recommendation ${created.body.recommendation_id}`);
    const read = await call('get', `/rest/default/V1/dispensary/recommendation/${created.body.recommendation_id}`);
    expect(read.body.extension_attributes.reminder_count).to.equal(2);
    const search = await call('get', `/rest/default/V1/dispensary/recommendation/search?searchCriteria[filter_groups][0][filters][0][field]=recommendation_id&searchCriteria[filter_groups][0][filters][0][value]=${created.body.recommendation_id}`);
    expect(search.body.items.map((r: { extension_attributes: object }) => r.extension_attributes)).to.deep.equal([{ reminder_count: 2 }]);
  });

  it('should build the virtual type with merged arguments and a clock of its own', () => {
    const urgent = t.app.get<{ prefix: string; channels: object; defaultDays: number; developerMode: boolean; clock: object; format(m: string): string }>('Acme\\Reminders\\Model\\UrgentReminderPolicy');
    const policy = t.app.get<{ clock: object }>('Acme\\Reminders\\Model\\ReminderPolicy');
    expect(urgent.format('call now')).to.equal('URGENT: CALL NOW');
    expect(urgent.channels).to.deep.equal({ email: 'email', sms: 'sms' });
    expect([urgent.defaultDays, urgent.developerMode]).to.deep.equal([30, false]);
    expect(urgent.clock).to.not.equal(policy.clock);
  });

  it('should show its observer and plugins in the dev commands', async () => {
    const events = await t.cli('dev:event:list', 'dispensary_recommendation_save_after');
    expect(events.out).to.include('    1. acme_reminders_schedule_follow_up (Acme\\Reminders\\Observer\\ScheduleFollowUp)');
    const plugins = await t.cli('dev:plugin:list', 'Dispensary\\Recommendation\\Api\\RecommendationRepositoryInterface', 'get');
    expect(plugins.out.join('\n')).to.contain('acme_reminders_add_count::afterGet (Acme\\Reminders\\Plugin\\AddReminderCount, sortOrder 0)');
  });

  it("should list the caller's store's reminders with search criteria, and read no other store's", async () => {
    await t.createStore('north');
    const north = await call('post', '/rest/north/V1/acme/reminders').send({ reminder: { patient_id: patientId, message: 'Call from north' } });
    const filter = 'searchCriteria[filter_groups][0][filters][0][field]=message&searchCriteria[filter_groups][0][filters][0][value]=%25call%25&searchCriteria[filter_groups][0][filters][0][condition_type]=like';
    const sorted = '&searchCriteria[sort_orders][0][field]=reminder_id&searchCriteria[sort_orders][0][direction]=DESC&searchCriteria[page_size]=1';

    const res = await search('default', filter + sorted);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.items).to.have.length(1);
    expect(res.body.items[0]).to.include({ store_id: 1, message: 'Reminder: Call the patient' });
    expect(res.body.total_count).to.equal(1); // not the north one
    expect(res.body.search_criteria).to.deep.equal({
      filter_groups: [{ filters: [{ field: 'message', value: '%call%', condition_type: 'like' }] }],
      sort_orders: [{ field: 'reminder_id', direction: 'DESC' }],
      page_size: 1,
      current_page: 1,
    });
    // Under `all`, every store's; north's reminder is newest.
    expect((await search('all', filter + sorted)).body).to.deep.include({ total_count: 2, items: [north.body] });
    // Nor does get() read across stores.
    expect((await call('get', `/rest/default/V1/acme/reminders/${north.body.reminder_id}`)).status).to.equal(404);
  });

  it('should require searchCriteria, and refuse a field it does not list', async () => {
    const missing = await call('get', '/rest/default/V1/acme/reminders/search');
    expect([missing.status, missing.body]).to.deep.equal([400, { message: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: 'searchCriteria' } }]);
    expect((await search('default', 'searchCriteria=')).body.total_count).to.be.greaterThan(0); // everything, one page of it
    const unknown = await search('default', 'searchCriteria[sort_orders][0][field]=secret');
    expect(unknown.status).to.equal(400);
  });
});
