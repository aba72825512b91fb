/**
 * Port of Magento 2.4's dev/tests/api-functional/testsuite/Magento/Webapi/DeserializationTest.php
 * on Magento's TestModule5: an empty body names the missing parameter as Magento does, by its
 * camelCase name (`entityItem`).
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../support.js';

describe('Magento Webapi/DeserializationTest.php (TestModule5)', () => {
  const m = magentoTestModulesApp();
  const send = (method: 'post' | 'put', url: string) => {
    const agent = m.t.request();
    const req = method === 'post' ? agent.post(`/rest${url}`) : agent.put(`/rest${url}`);
    return req.set('Authorization', `Bearer ${m.token}`).set('Content-Type', 'application/json').send('');
  };

  it('testPostRequestWithEmptyBody', async () => {
    const res = await send('post', '/V1/TestModule5/');
    expect(res.status).to.equal(400);
    expect(res.text).to.contain(
      '{"message":"\\"%fieldName\\" is required. Enter and try again.","parameters":{"fieldName":"item"}}',
    );
  });

  it('testPutRequestWithEmptyBody', async () => {
    const res = await send('put', '/V1/TestModule5/1');
    expect(res.status).to.equal(400);
    expect(res.text).to.contain(
      '{"message":"\\"%fieldName\\" is required. Enter and try again.","parameters":{"fieldName":"entityItem"}}',
    );
  });
});
