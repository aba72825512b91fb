/**
 * The edge mapping of exception classes to HTTP statuses (Magento's Webapi\ErrorProcessor): domain
 * exceptions carry no status; the web layer's WebapiException keeps its own.
 */
import { expect } from 'chai';
import { InputException } from '../../../app/framework/exception/InputException.js';
import {
  AuthenticationException,
  AuthorizationException,
  LocalizedException,
  NoSuchEntityException,
} from '../../../app/framework/exception/LocalizedException.js';
import { ServiceUnavailableException } from '../../../app/framework/exception/ServiceUnavailableException.js';
import { TooManyRequestsException } from '../../../app/framework/exception/TooManyRequestsException.js';
import { httpHeadersOf, httpStatusOf } from '../../../app/framework/webapi/ErrorProcessor.js';
import { WebapiException } from '../../../app/framework/webapi/WebapiException.js';

describe('ErrorProcessor', () => {
  it('should map each domain exception class to its status, and anything else to 400', () => {
    class SubclassedNoSuchEntity extends NoSuchEntityException {}
    const cases: [LocalizedException, number][] = [
      [new LocalizedException('Bad.'), 400],
      [InputException.requiredField('sku'), 400],
      [NoSuchEntityException.singleField('id', 1), 404],
      [new SubclassedNoSuchEntity('Gone.'), 404],
      [AuthorizationException.forResources(['A::b']), 401],
      [AuthenticationException.invalidCredentials(), 401],
      [new TooManyRequestsException(3), 429],
      [new ServiceUnavailableException(), 503],
      [new WebapiException(415, 'No.'), 415],
    ];
    expect(cases.map(([error]) => httpStatusOf(error))).to.deep.equal(cases.map(([, status]) => status));
  });

  it('should give Retry-After in whole seconds, at least 1, only where the exception knows one', () => {
    expect(httpHeadersOf(new TooManyRequestsException(2.1))).to.deep.equal({ 'Retry-After': '3' });
    expect(httpHeadersOf(new TooManyRequestsException(0))).to.deep.equal({ 'Retry-After': '1' });
    expect(httpHeadersOf(new ServiceUnavailableException('Busy.', {}, 1))).to.deep.equal({ 'Retry-After': '1' });
    expect(httpHeadersOf(new ServiceUnavailableException())).to.equal(undefined);
    expect(httpHeadersOf(NoSuchEntityException.singleField('id', 1))).to.equal(undefined);
    expect(httpHeadersOf(new WebapiException(503, 'Busy.', {}, { 'Retry-After': '5' }))).to.deep.equal({
      'Retry-After': '5',
    });
  });

  it('should keep statuses off domain exceptions', () => {
    expect(new NoSuchEntityException('Gone.')).not.to.have.property('httpStatus');
    expect(new ServiceUnavailableException()).not.to.have.property('httpStatus');
  });
});
