import { expect } from 'chai';
import Joi from 'joi';
import type { MethodSpec } from '../../../app/framework/contract/Contract.js';
import { InputException, LocalizedException } from '../../../app/framework/exception/index.js';
import { InputMapper, type InputSources } from '../../../app/framework/webapi/InputMapper.js';
import { DEFER, withFastPath } from '../../../app/framework/contract/FastPath.js';

const spec: MethodSpec = {
  params: [
    { name: 'recommendationId', schema: Joi.string().required() },
    { name: 'pageSize', schema: Joi.number().integer().default(20) },
    { name: 'ids', schema: Joi.array().items(Joi.number().integer()), aliases: ['id'] },
    {
      name: 'recommendation',
      schema: Joi.object({
        items: Joi.array().items(
          Joi.object({
            sku: Joi.string().required(),
            qty: Joi.number()
              .integer()
              .custom((value: number) => {
                if (value === 13) throw new LocalizedException('The qty %qty is unlucky.', { qty: value });
                return value;
              }),
          }),
        ),
      }),
    },
  ],
};

function sources(partial: Partial<InputSources>): InputSources {
  return { pathParams: {}, body: undefined, query: undefined, placeholders: {}, ...partial };
}

function inputErrors(action: () => unknown): { phrase: string; parameters: unknown }[] {
  try {
    action();
  } catch (error) {
    expect(error).to.be.instanceOf(InputException);
    return (error as InputException).errors;
  }
  throw new Error('expected an InputException');
}

describe('InputMapper', () => {
  const mapper = new InputMapper(spec);

  it('should give an optional parameter its schema default when the request leaves it out', () => {
    const [, pageSize] = mapper.map(sources({ pathParams: { recommendationId: 'r1' } }));
    expect(pageSize).to.equal(20);
  });

  it('should take path parameters over body keys and body keys over query keys', () => {
    const args = mapper.map(
      sources({
        pathParams: { recommendationId: 'path' },
        body: { recommendation_id: 'body', page_size: 5 },
        query: { pageSize: '7' },
      }),
    );
    expect(args.slice(0, 2)).to.deep.equal(['path', 5]);
  });

  it('should fill a parameter from an alias in the query, as id[]=1&id[]=2 fills ids', () => {
    const [, , ids] = mapper.map(sources({ pathParams: { recommendationId: 'r' }, query: { id: ['1', '2'] } }));
    expect(ids).to.deep.equal([1, 2]);
  });

  it('should render a LocalizedException thrown by a custom rule as its own phrase', () => {
    const errors = inputErrors(() =>
      mapper.map(
        sources({
          pathParams: { recommendationId: 'r' },
          body: { recommendation: { items: [{ sku: 'a', qty: 13 }] } },
        }),
      ),
    );
    expect(errors).to.deep.equal([{ phrase: 'The qty %qty is unlucky.', parameters: { qty: 13 } }]);
  });

  it('should report every problem with its path, in parameter order', () => {
    const errors = inputErrors(() =>
      mapper.map(sources({ body: { page_size: 'x', recommendation: { items: [{ qty: 1.5 }] } } })),
    );
    // A missing parameter is named as Magento's ServiceInputProcessor names it: the method's (camelCase) name.
    expect(errors.map((e) => (e.parameters as { fieldName: string }).fieldName)).to.deep.equal([
      'recommendationId',
      'page_size',
      'recommendation.items[0].sku',
      'recommendation.items[0].qty',
    ]);
  });

  it('should inject forced values into nested input and defaults only where nothing was given', () => {
    const injecting = new InputMapper(spec, [
      { name: 'recommendation.items', value: '%store_id%', force: false },
      { name: 'recommendationId', value: '%caller_id%', force: true },
    ]);
    const errors = inputErrors(() =>
      injecting.map(sources({ placeholders: { caller_id: 5, store_id: 2 }, body: { recommendation: {} } })),
    );
    // items became the string "2" (not forced, absent), which the schema rejects; the id was forced.
    expect(errors).to.deep.equal([
      {
        phrase: 'Error occurred during "items" processing. Invalid type for value: "2". Expected Type: "object[]".',
        parameters: { fieldName: 'recommendation.items' },
      },
    ]);
    const [id] = injecting.map(
      sources({
        pathParams: { recommendationId: 'mine' },
        placeholders: { caller_id: 5 },
        body: { recommendation: { items: [] } },
      }),
    );
    expect(id).to.equal('5');
  });
});

describe('InputMapper, as Magento reads data objects (issue 30)', () => {
  const item = Joi.object({ item_id: Joi.number().integer(), unit_price: Joi.number(), storeCode: Joi.string() });
  const updateSpec: MethodSpec = {
    params: [
      { name: 'itemId', schema: Joi.string() },
      { name: 'entityItem', schema: item.keys({ parts: Joi.array().items(item) }).required() },
    ],
  };
  const mapper = new InputMapper(updateSpec);

  it('should read keys in either spelling at every level, as the schema declares them', () => {
    const [, entity] = mapper.map(
      sources({
        body: { entityItem: { itemId: 1, unitPrice: 2, store_code: 'x', parts: [{ itemId: 3, unitPrice: 4 }] } },
      }),
    );
    expect(entity).to.deep.equal({
      item_id: 1,
      unit_price: 2,
      storeCode: 'x',
      parts: [{ item_id: 3, unit_price: 4 }],
    });
  });

  it('should still refuse a key the data object has in neither spelling, and a camelCase key sent beside its snake_case one', () => {
    const errors = inputErrors(() => mapper.map(sources({ body: { entityItem: { colourName: 'red' } } })));
    expect(errors.map((e) => (e.parameters as { fieldName: string }).fieldName)).to.deep.equal([
      'entity_item.colourName',
    ]);
    const both = inputErrors(() => mapper.map(sources({ body: { entityItem: { item_id: 1, itemId: 2 } } })));
    expect(both.map((e) => (e.parameters as { fieldName: string }).fieldName)).to.deep.equal(['entity_item.itemId']);
  });

  describe("on PUT, the path's last parameter (Magento's ParamsOverrider)", () => {
    const put = (pathParams: Record<string, string>, body: Record<string, unknown>, method = 'PUT') =>
      mapper.map(sources({ pathParams, body, method }));

    it("should go into the body's single data object when that object declares the field", () => {
      expect(put({ itemId: '7' }, { entityItem: { item_id: 2 } })[1]).to.deep.equal({ item_id: 7 });
      expect(put({ itemId: '7' }, { entityItem: { itemId: 2 } })[1]).to.deep.equal({ item_id: 7 });
      expect(put({ itemId: '7' }, { entityItem: {} })[1]).to.deep.equal({ item_id: 7 });
    });

    it('should stay at the top level when the body has more than one key, and not run for POST or for `me`', () => {
      expect(put({ itemId: '7' }, { entityItem: { item_id: 2 }, other: 1 })[1]).to.deep.equal({ item_id: 2 });
      expect(put({ itemId: '7' }, { entityItem: { item_id: 2 } }, 'POST')[1]).to.deep.equal({ item_id: 2 });
      expect(put({ itemId: 'me' }, { entityItem: { item_id: 2 } })[1]).to.deep.equal({ item_id: 2 });
    });
  });
});

describe('InputMapper: mappers built again from the same contract (each application a process starts)', () => {
  it('should map alike from the same schemas, and by its own from a schema of the same name but other keys', () => {
    const first = new InputMapper(spec);
    const again = new InputMapper(spec);
    const given = sources({
      pathParams: { recommendationId: 'r1' },
      body: { recommendation: { items: [{ sku: 'a', qty: 2 }] } },
    });
    expect(again.map(given)).to.deep.equal(first.map(given));
    expect(inputErrors(() => again.map(sources({ body: {} })))).to.deep.equal(
      inputErrors(() => first.map(sources({ body: {} }))),
    );
    // Another module tree's contract: the same parameter name, a schema of its own.
    const other = new InputMapper({
      params: [{ name: 'recommendation', schema: Joi.object({ note_text: Joi.string().required() }) }],
    });
    expect(other.map(sources({ body: { recommendation: { noteText: 'x' } } }))).to.deep.equal([{ note_text: 'x' }]);
    expect(
      inputErrors(() => other.map(sources({ body: { recommendation: { sku: 'a' } } }))).map((e) => e.phrase),
    ).to.include('"%fieldName" is required. Enter and try again.');
    expect(
      first.map(sources({ pathParams: { recommendationId: 'r1' }, body: { recommendation: { items: [] } } }))[3],
    ).to.deep.equal({
      items: [],
    });
  });
});

describe('InputMapper, with a schema that has a fast path (issue 28, point 5)', () => {
  const schema = Joi.object({ n: Joi.number().integer().min(1).required() }).required();
  const calls: unknown[] = [];
  // Takes {n: <positive integer>} and marks its answer, so the test sees which path answered.
  withFastPath(schema, (value) => {
    calls.push(value);
    const n = (value as { n?: unknown }).n;
    return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? { n, fast: true } : DEFER;
  });
  const spec: MethodSpec = { params: [{ name: 'payload', schema }] };

  it('should answer with the fast path for input it takes, after the keys are normalised', () => {
    calls.length = 0;
    const [payload] = new InputMapper(spec).map(sources({ body: { payload: { n: 3 } } }));
    expect(payload).to.deep.equal({ n: 3, fast: true });
    expect(calls).to.deep.equal([{ n: 3 }]);
  });

  it('should let the schema validate and report what the fast path leaves to it', () => {
    const mapper = new InputMapper(spec);
    expect(mapper.map(sources({ body: { payload: { n: '4' } } }))).to.deep.equal([{ n: 4 }]);
    const errors = inputErrors(() => mapper.map(sources({ body: { payload: { n: 0 } } })));
    expect(errors.map((e) => (e.parameters as { fieldName: string }).fieldName)).to.deep.equal(['payload.n']);
  });

  it('should not use it for a schema derived from that one (extension attributes add keys)', () => {
    const derived: MethodSpec = { params: [{ name: 'payload', schema: schema.keys({ extra: Joi.any() }) }] };
    expect(new InputMapper(derived).map(sources({ body: { payload: { n: 3 } } }))).to.deep.equal([{ n: 3 }]);
  });
});
