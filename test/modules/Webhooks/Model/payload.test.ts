/**
 * applyOperation (modules/Dispensary/Webhooks/Model/payload.ts) on its own: what it puts into a
 * payload is a copy, so an answer kept in the ttl cache stays as the receiver sent it.
 */
import { expect } from 'chai';
import { applyOperation, parseOperations } from '../../../../modules/Dispensary/Webhooks/Model/payload.js';

describe('applyOperation', () => {
  it('should put a copy of the value into the payload, never the cached operation itself', () => {
    const [operation] = parseOperations('[{"op":"add","path":"recommendation/items","value":{"sku":"W-3","qty":1}}]')!;
    const first = { recommendation: { items: [] as { sku: string; qty: number }[] } };
    expect(applyOperation(first, operation!, ['recommendation'])).to.equal(true);
    // A later step of the same request changes what the hook added.
    first.recommendation.items[0]!.qty = 99;

    const second = { recommendation: { items: [] as { sku: string; qty: number }[] } };
    expect(applyOperation(second, operation!, ['recommendation'])).to.equal(true);
    expect(second.recommendation.items).to.deep.equal([{ sku: 'W-3', qty: 1 }]);
    expect(operation!.value).to.deep.equal({ sku: 'W-3', qty: 1 });
  });
});
