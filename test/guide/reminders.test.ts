import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { DIST_ROOT, PROJECT_ROOT } from '../../app/bootstrap/paths.js';
import { TestApp } from '../support/testApp.js';

// The guide's module lives among the test fixtures; a module in modules/ is loaded by TestApp.start() alone.
const GUIDE_MODULES = { modulesDir: path.join(PROJECT_ROOT, 'test', 'fixtures', 'guide', 'modules'), codeDir: path.join(DIST_ROOT, 'test', 'fixtures', 'guide', 'modules') };
const PROJECT_MODULES = { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') };

describe('Acme_Reminders (the module of docs/writing-a-module.md)', () => {
  let t: TestApp;
  let token: string;
  let patientId: number;
  before(async () => {
    t = await TestApp.start({ moduleSources: [PROJECT_MODULES, GUIDE_MODULES] }); // a database of its own, migrated
    token = await t.integrationToken({ allStores: true });
    await call('post', '/rest/all/V1/products').send({ product: { sku: 'VIT-D3', name: 'Vitamin D3' } });
    const patient = await call('post', '/rest/default/V1/dispensary/patient').send({ patient: { firstname: 'Ada', lastname: 'L', email: 'ada@example.com' } });
    patientId = patient.body.patient_id;
  });
  after(async () => t?.stop());

  const call = (method: 'get' | 'post', url: string) => request(t.http)[method](url).set('Authorization', `Bearer ${token}`);

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
});
