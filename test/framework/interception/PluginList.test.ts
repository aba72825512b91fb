/**
 * Unit tests of PluginList.ts: which methods of a plugin class count, the sort, the levels an
 * around plugin cuts, and the text `dev:plugin:list` prints. The calling itself is Interceptor's
 * (Interceptor.test.ts runs whole chains through the container).
 */
import { expect } from 'chai';
import {
  buildLevels,
  describeLevels,
  pluginMethods,
  sortPlugins,
  type PluginEntry,
  type PluginLevel,
} from '../../../app/framework/interception/PluginList.js';

let position = 0;

function entry(name: string, pluginClass: PluginEntry['pluginClass'], sortOrder?: number): PluginEntry {
  return {
    name,
    typeName: `Fixture\\Plugin\\${pluginClass.name}`,
    sortOrder,
    position: position++,
    pluginClass,
    instance: () => ({}),
  };
}

/** Each level as `before:[..] around:x after:[..]`, by plugin name. */
function shape(levels: readonly PluginLevel[]): string[] {
  return levels.map(
    (level) =>
      `before:[${level.before.map((r) => r.plugin.name).join(',')}] around:${level.around?.plugin.name ?? '-'} after:[${level.after.map((r) => r.plugin.name).join(',')}]`,
  );
}

class BeforeAfter {
  beforeSave(): void {}
  afterSave(): void {}
}
class AroundOnly {
  aroundSave(): void {}
}
class AllThree {
  beforeSave(): void {}
  aroundSave(): void {}
  afterSave(): void {}
}
class OtherMethod {
  afterLoad(): void {}
}

describe('PluginList', () => {
  describe('pluginMethods()', () => {
    it('should map beforeX/aroundX/afterX to the target method x, with the plugin method names', () => {
      class Plugin {
        beforeSave(): void {}
        aroundGetById(): void {}
        afterGetById(): void {}
      }
      const methods = pluginMethods(Plugin);
      expect([...methods.keys()]).to.have.members(['save', 'getById']);
      expect([...methods.get('save')!]).to.deep.equal([['before', 'beforeSave']]);
      expect(Object.fromEntries(methods.get('getById')!)).to.deep.equal({
        around: 'aroundGetById',
        after: 'afterGetById',
      });
    });

    it('should ignore names that only start with a kind (beforehand), non-functions and Object.prototype', () => {
      class Plugin {
        beforehand(): void {}
        after(): void {}
        afterwards = 1;
        toString(): string {
          return 'x';
        }
      }
      Object.defineProperty(Plugin.prototype, 'afterValue', { value: 42 });
      expect(pluginMethods(Plugin).size).to.equal(0);
    });

    it('should include inherited plugin methods, a subclass override counting once', () => {
      class Base {
        beforeSave(): void {}
        afterLoad(): void {}
      }
      class Child extends Base {
        override beforeSave(): void {}
        aroundSave(): void {}
      }
      const methods = pluginMethods(Child);
      expect(Object.fromEntries(methods.get('save')!)).to.deep.equal({ before: 'beforeSave', around: 'aroundSave' });
      expect(Object.fromEntries(methods.get('load')!)).to.deep.equal({ after: 'afterLoad' });
    });

    it('should keep the case after the first letter and accept _ and $ targets', () => {
      class Plugin {
        afterGetSKUList(): void {}
        before_private(): void {}
        after$special(): void {}
      }
      expect([...pluginMethods(Plugin).keys()]).to.have.members(['getSKUList', '_private', '$special']);
    });
  });

  describe('sortPlugins()', () => {
    it("should sort by sortOrder, a missing one counting as 0 (as Magento's di.xml reader writes it), ties in declaration order, without changing the input", () => {
      const plugins = [
        entry('c', BeforeAfter, 30),
        entry('none1', BeforeAfter),
        entry('a', BeforeAfter, -5),
        entry('b1', BeforeAfter, 10),
        entry('none2', BeforeAfter),
        entry('zero', BeforeAfter, 0),
        entry('b2', BeforeAfter, 10),
      ];
      const before = plugins.map((p) => p.name);
      expect(sortPlugins(plugins).map((p) => p.name)).to.deep.equal(['a', 'none1', 'none2', 'zero', 'b1', 'b2', 'c']);
      expect(plugins.map((p) => p.name)).to.deep.equal(before);
    });

    it('should order ties by position, not by where they stand in the list', () => {
      const late = { ...entry('late', BeforeAfter, 1), position: 100 };
      const early = { ...entry('early', BeforeAfter, 1), position: 1 };
      expect(sortPlugins([late, early]).map((p) => p.name)).to.deep.equal(['early', 'late']);
    });
  });

  describe('buildLevels()', () => {
    it('should answer no levels when no plugin touches the method', () => {
      expect(buildLevels([entry('other', OtherMethod, 10)], 'save')).to.deep.equal([]);
      expect(buildLevels([], 'save')).to.deep.equal([]);
    });

    it('should keep befores and afters of plugins without around in one level', () => {
      const levels = buildLevels(
        [entry('b', BeforeAfter, 20), entry('a', BeforeAfter, 10), entry('x', OtherMethod, 15)],
        'save',
      );
      expect(shape(levels)).to.deep.equal(['before:[a,b] around:- after:[a,b]']);
    });

    it('should close a level at each around, the plugins after it forming the level its proceed calls', () => {
      // Magento's row 3: A and C have all three, B before and after; sortOrder A < B < C.
      const levels = buildLevels(
        [entry('C', AllThree, 30), entry('A', AllThree, 10), entry('B', BeforeAfter, 20)],
        'save',
      );
      expect(shape(levels)).to.deep.equal([
        'before:[A] around:A after:[A]',
        'before:[B,C] around:C after:[B,C]',
        'before:[] around:- after:[]',
      ]);
    });

    it('should give an around-only plugin a level with no before or after', () => {
      const levels = buildLevels([entry('wrap', AroundOnly, 5), entry('tail', BeforeAfter, 6)], 'save');
      expect(shape(levels)).to.deep.equal(['before:[] around:wrap after:[]', 'before:[tail] around:- after:[tail]']);
    });

    it('should carry the kind, the plugin method name and the function to call', () => {
      const [level] = buildLevels([entry('all', AllThree, 1)], 'save');
      expect(level!.before[0]).to.include({
        kind: 'before',
        methodName: 'beforeSave',
        fn: AllThree.prototype.beforeSave,
      });
      expect(level!.around).to.include({ kind: 'around', methodName: 'aroundSave', fn: AllThree.prototype.aroundSave });
      expect(level!.after[0]).to.include({ kind: 'after', methodName: 'afterSave', fn: AllThree.prototype.afterSave });
    });
  });

  describe('describeLevels()', () => {
    it('should print the call order with proceed nesting and sortOrder (0 when missing)', () => {
      const levels = buildLevels([entry('b', AllThree, 20), entry('a', BeforeAfter)], 'save');
      expect(describeLevels(levels, 'save')).to.deep.equal([
        'a::beforeSave (Fixture\\Plugin\\BeforeAfter, sortOrder 0)',
        'b::beforeSave (Fixture\\Plugin\\AllThree, sortOrder 20)',
        'b::aroundSave (Fixture\\Plugin\\AllThree, sortOrder 20) -> proceed:',
        '  save() itself',
        'a::afterSave (Fixture\\Plugin\\BeforeAfter, sortOrder 0)',
        'b::afterSave (Fixture\\Plugin\\AllThree, sortOrder 20)',
      ]);
    });

    it('should print only the method for a method without plugins', () => {
      expect(describeLevels([], 'save')).to.deep.equal(['save() itself']);
    });
  });
});
