/**
 * Port of Magento's dev/tests/api-functional/testsuite/Magento/Webapi/Routing/RestErrorHandlingTest.php
 * on Magento's TestModule3 (the revision the search tool holds, with its Error service's positional
 * phrases, `Resource with ID "%1" not found.`). Magento's `_errorTest` passes when no exception
 * comes at all; the port asserts the status too.
 */
import { expect } from 'chai';
import { magentoTestModulesApp } from '../../support.js';

describe('Magento Webapi/Routing/RestErrorHandlingTest.php (TestModule3)', () => {
  const m = magentoTestModulesApp();

  it('testSuccess', async () => {
    const res = await m.call('get', '/V1/errortest/success');
    expect(res.status).to.equal(200);
    expect(res.body.value, 'Success case is correct').to.equal('a good id');
  });

  it('testNotFound: 404 with the phrase and its parameter', async () => {
    const res = await m.call('get', '/V1/errortest/notfound');
    expect(res.status).to.equal(404);
    expect(res.body.message).to.equal('Resource with ID "%1" not found.');
    expect(res.body.parameters).to.deep.equal(['resourceY']);
  });

  it('testUnauthorized: 401 with the phrase and its parameter', async () => {
    const res = await m.call('get', '/V1/errortest/unauthorized');
    expect(res.status).to.equal(401);
    expect(res.body.message).to.equal('Consumer is not authorized to access %1');
    expect(res.body.parameters).to.deep.equal(['resourceN']);
  });

  it('testOtherException: 500 with a report id, no detail', async () => {
    const res = await m.call('get', '/V1/errortest/otherException');
    expect(res.status).to.equal(500);
    const match = /Report ID: ([a-zA-Z0-9-]*)/.exec(res.body.message as string);
    expect(match?.[1], 'Report id missing for internal error.').to.not.equal('');
    expect((res.body.message as string).replace(match![1]!, 'webapi-XXX')).to.equal(
      'Internal Error. Details are available in Magento log file. Report ID: webapi-XXX',
    );
    expect(JSON.stringify(res.body)).to.not.contain('Non service exception');
  });
});
