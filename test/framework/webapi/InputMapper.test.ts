import { expect } from 'chai';
import Joi from 'joi';
import type { MethodSpec } from '../../../app/framework/contract/Contract.js';
import { InputException, LocalizedException } from '../../../app/framework/exception/index.js';
import { InputMapper, type InputSources } from '../../../app/framework/webapi/InputMapper.js';

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
