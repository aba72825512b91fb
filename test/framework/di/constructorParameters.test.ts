import { expect } from 'chai';
import { inject as inversifyInject, injectable as inversifyInjectable } from 'inversify';
import { inject, injectable, optional } from '../../../app/framework/index.js';
import { constructorParameters, injectionPoints } from '../../../app/framework/di/constructorParameters.js';

@injectable()
class WithFrameworkDecorators {
  constructor(
    @inject('Vendor\\Module\\Model\\A') readonly a: object,
    readonly configured: string,
    @optional() @inject('Vendor\\Module\\Model\\Maybe') readonly maybe?: object,
  ) {}
}

@inversifyInjectable()
class WithInversifyDecorators {
  constructor(@inversifyInject('Vendor\\Module\\Model\\B') readonly b: object) {}
}

class Inherits extends WithFrameworkDecorators {}

describe('constructorParameters / injectionPoints', () => {
  it('should read @inject and @optional of #framework from its own record', () => {
    expect(injectionPoints(WithFrameworkDecorators)).to.deep.equal([
      { serviceId: 'Vendor\\Module\\Model\\A', optional: false },
      undefined,
      { serviceId: 'Vendor\\Module\\Model\\Maybe', optional: true },
    ]);
  });

  it("should read a class decorated with inversify's own decorators through its public getClassMetadata", () => {
    expect(injectionPoints(WithInversifyDecorators)).to.deep.equal([
      { serviceId: 'Vendor\\Module\\Model\\B', optional: false },
    ]);
  });

  it('should take the parameters and tokens of the nearest constructor up the class chain', () => {
    expect(constructorParameters(Inherits).map((p) => p.name)).to.deep.equal(['a', 'configured', 'maybe']);
    expect(injectionPoints(Inherits)[0]).to.deep.equal({ serviceId: 'Vendor\\Module\\Model\\A', optional: false });
  });

  it('should read a plain function and a class without a constructor', () => {
    function Legacy(
      this: { x: number },
      first: number,
      { nested }: { nested: number } = { nested: 1 },
      ...rest: number[]
    ) {
      this.x = first + nested + rest.length;
    }
    class Empty {}
    expect(constructorParameters(Legacy)).to.deep.equal([
      { name: 'first', hasDefault: false },
      { name: null, hasDefault: true },
      { name: 'rest', hasDefault: true },
    ]);
    expect(constructorParameters(Empty)).to.deep.equal([]);
  });
});

describe('constructorParameters: the constructor found without parsing the whole class', () => {
  /** A class from its exact source, as Function.prototype.toString answers it. */
  const classOf = (source: string) => new Function(`return (${source})`)() as new (...args: never[]) => object;
  const names = (source: string) => constructorParameters(classOf(source)).map((p) => [p.name, p.hasDefault]);

  it('should read a constructor after fields, methods and comments that mention constructor(', () => {
    expect(names('class A { label = "constructor(x) {"; constructor(a, b) {} }')).to.deep.equal([
      ['a', false],
      ['b', false],
    ]);
    expect(names('class A { /* constructor(x) */ constructor(a) {} }')).to.deep.equal([['a', false]]);
    expect(names('class A { copy() { return this.constructor(1); } constructor(a, b = 2) {} }')).to.deep.equal([
      ['a', false],
      ['b', true],
    ]);
    expect(names('class A { static constructor(x) {} constructor(a) {} }')).to.deep.equal([['a', false]]);
    expect(names('class A { "constructor"(a, b) {} }')).to.deep.equal([
      ['a', false],
      ['b', false],
    ]);
  });

  it('should read defaults holding parentheses, strings, regular expressions and objects', () => {
    expect(
      names(
        'class A extends Object { constructor(a = f(")", 2), b = /\\)/, { c } = { c: ")" }, ...rest) { super(); } }',
      ),
    ).to.deep.equal([
      ['a', true],
      ['b', true],
      [null, true],
      ['rest', true],
    ]);
  });

  it('should find no constructor where the word is only in a string, a name or a method body', () => {
    expect(names('class A { constructorName = "x"; }')).to.deep.equal([]);
    expect(names('class A { make() { return new this.constructor(); } }')).to.deep.equal([]);
    expect(names('class A { ["constructor"](a) {} }')).to.deep.equal([]);
  });
});
