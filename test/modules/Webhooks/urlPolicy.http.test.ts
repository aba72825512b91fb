/**
 * Issue 25, point 8: the cloud metadata address in the IPv6 spellings that embed an IPv4 address,
 * and the metadata name with a trailing dot or in upper case, are refused at subscription (400,
 * nothing stored) for webhooks and events, and by the check every call makes before it connects
 * and every name resolution makes (UrlPolicy.isMetadataAddress: HookRunner, WebhookTransport,
 * HttpSender's lookup). No test here connects anywhere.
 */
import { expect } from 'chai';
import { UrlPolicy } from '../../../modules/Dispensary/Webhooks/Model/UrlPolicy.js';
import { ITEMS_ADDED } from '../Eventing/support.js';
import { ADD_ITEMS, WebhookWorld } from './support.js';

const REFUSED_HOSTS = [
  '[::a9fe:a9fe]',
  '[::169.254.169.254]',
  '[::ffff:169.254.169.254]',
  '[::ffff:a9fe:a9fe]',
  '[::ffff:0:a9fe:a9fe]',
  '[::ffff:0:169.254.169.254]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b::169.254.169.254]',
  '[64:ff9b:1:a9fe:a9:fe00::]', // 64:ff9b:1::/48, RFC 6052 /48 layout
  '[64:ff9b:1::a9fe:a9fe]', // 64:ff9b:1::/48, /96 layout
  '[2002:a9fe:a9fe::1]', // 6to4
  '[2001:0:a9fe:a9fe::1]', // Teredo server
  '[2001:0:4136:e378:8000:63bf:5601:5601]', // Teredo client 169.254.169.254, obfuscated
  '[::a9fe:1]', // elsewhere in 169.254.0.0/16
  '[FD00:EC2::254]',
  'metadata.google.internal.',
  'METADATA.GOOGLE.INTERNAL.',
  'Metadata.Google.Internal',
  '169.254.169.254.',
];

describe('Webhooks and events: the metadata address in every IPv6 and DNS spelling', () => {
  describe('UrlPolicy.isMetadataAddress (used at subscription, before each call and on each resolved address)', () => {
    for (const host of REFUSED_HOSTS) {
      it(`should refuse ${host}`, () => {
        expect(UrlPolicy.isMetadataAddress(host.replace(/^\[|\]$/g, ''))).to.equal(true);
        expect(UrlPolicy.isMetadataAddress(host)).to.equal(true);
      });
    }
    for (const host of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '64:ff9b::102:304',
      '2002:102:304::1',
      'fe80::1',
      'hooks.example.com',
      'hooks.example.com.',
      'metadata.google.internal.example.com',
      '169.255.0.1',
    ]) {
      it(`should accept ${host}`, () => {
        expect(UrlPolicy.isMetadataAddress(host)).to.equal(false);
      });
    }
  });

  describe('subscribing', () => {
    let w: WebhookWorld;
    before(async () => {
      w = await WebhookWorld.start();
    });
    after(async () => w?.stop());

    for (const host of REFUSED_HOSTS) {
      it(`should refuse http://${host}/ as a webhook URL and an event destination (400, nothing stored)`, async () => {
        const url = `http://${host}/latest/meta-data/`;
        const hook = await w.subscribeRaw({
          webhook_method: ADD_ITEMS,
          webhook_type: 'before',
          batch_name: 'b',
          hook_name: 'h',
          url,
        });
        expect(hook.status, JSON.stringify(hook.body)).to.equal(400);
        expect(hook.body.message).to.include('metadata');
        const event = await w.d
          .request()
          .post('/rest/V1/eventing/eventSubscribe')
          .set('Authorization', `Bearer ${w.adminToken}`)
          .send({ event: { name: ITEMS_ADDED, destination: url } });
        expect(event.status, JSON.stringify(event.body)).to.equal(400);
        expect(event.body.message).to.include('metadata');
        expect(await w.d.t.app.knex('webhook_subscription').select()).to.deep.equal([]);
        expect(await w.d.t.app.knex('event_subscription').select()).to.deep.equal([]);
      });
    }
  });
});
