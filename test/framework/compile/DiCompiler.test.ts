/**
 * setup:di:compile + tsc on a module tree of its own (under var/, so `#framework` resolves as in
 * the project): a plugin, preference or observer that does not fit what it is declared on fails
 * the compile with a message naming the class, its method and the target; typed correctly, it
 * compiles; extension_attributes.xml types `extension_attributes` of the data interface.
 *
 * Magento's counterpart, Magento\Framework\Interception\Code\InterfaceValidator (run by
 * setup:di:compile), checks the subject type, the parameter count and class-typed parameters
 * only; these checks add scalar parameters, results, sync/async, preferences and observers.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../../app/bootstrap/config/paths.js';
import { compileDi } from '../../../app/framework/compile/DiCompiler.js';

const NATIVE_TSC = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')),
  'bin',
  'tsc',
);

const FILES: Record<string, string> = {
  'etc/module.xml': `<?xml version="1.0"?><config><module name="Fixture_MODULE"/></config>`,
  'etc/di.xml': `<?xml version="1.0"?><config>
    <preference for="Fixture\\MODULE\\Api\\ThingServiceInterface" type="Fixture\\MODULE\\Model\\ThingService"/>
    <type name="Fixture\\MODULE\\Api\\ThingServiceInterface">
      <plugin name="fixture_MODULE_plugin" type="Fixture\\MODULE\\Plugin\\ThingPlugin"/>
    </type>
  </config>`,
  'etc/events.xml': `<?xml version="1.0"?><config>
    <event name="fixture_EVENT_renamed"><observer name="fixture_MODULE_seen" instance="Fixture\\MODULE\\Observer\\RenameObserver"/></event>
  </config>`,
  'etc/extension_attributes.xml': `<?xml version="1.0"?><config>
    <extension_attributes for="Fixture\\MODULE\\Api\\Data\\ThingInterface">
      <attribute code="label_count" type="int"/>
      <attribute code="labels" type="string[]"/>
    </extension_attributes>
  </config>`,
  'Api/Data/ThingInterface.ts': `
    export interface ThingInterface { id: number; name: string; extension_attributes?: ThingExtensionInterface }
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    export interface ThingExtensionInterface {}
  `,
  'Api/ThingServiceInterface.ts': `
    import type { ThingInterface } from './Data/ThingInterface.js';
    export interface ThingServiceInterface {
      rename(id: number, name: string): Promise<ThingInterface>;
      count(): number;
    }
  `,
  'Api/events.ts': `
    import type { ThingInterface } from './Data/ThingInterface.js';
    export interface Events { fixture_EVENT_renamed: { thing: ThingInterface; previous: string } }
  `,
  'Model/ThingService.ts': `
    import type { ThingInterface } from '../Api/Data/ThingInterface.js';
    export class ThingService {
      async rename(id: number, name: string): Promise<ThingInterface> { return { id, name }; }
      count(): number { return 1; }
    }
  `,
  'Observer/RenameObserver.ts': `
    import type { Observer } from '#framework';
    import type { Events } from '../Api/events.js';
    export class RenameObserver {
      execute(observer: Observer<Events['fixture_EVENT_renamed']>): void { void observer.getEvent().getData('thing').name; }
    }
  `,
  'Plugin/ThingPlugin.ts': `
    import type { Proceed } from '#framework';
    import type { ThingInterface } from '../Api/Data/ThingInterface.js';
    import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
    export class ThingPlugin {
      beforeRename(_subject: ThingServiceInterface, id: number, name: string): [number, string] { return [id, name.trim()]; }
      aroundCount(_subject: ThingServiceInterface, proceed: Proceed<ThingServiceInterface, 'count'>): number { return proceed() + 1; }
      afterRename(_subject: ThingServiceInterface, result: ThingInterface): ThingInterface {
        const count: number | null | undefined = result.extension_attributes?.label_count;
        return { ...result, extension_attributes: { ...result.extension_attributes, label_count: (count ?? 0) + 1, labels: ['x'] } };
      }
    }
  `,
};

/** One module per case, compiled together in one program (one tsc run for the whole file). */
const CASES: Record<string, Record<string, string>> = {
  Good: {},
  WrongParameter: {
    'Plugin/ThingPlugin.ts': `
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class ThingPlugin { beforeRename(_subject: ThingServiceInterface, id: string): void { void id; } }`,
  },
  WrongReturn: {
    'Plugin/ThingPlugin.ts': `
      import type { ThingInterface } from '../Api/Data/ThingInterface.js';
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class ThingPlugin { afterRename(_subject: ThingServiceInterface, result: ThingInterface): string { return result.name; } }`,
  },
  WrongArity: {
    'Plugin/ThingPlugin.ts': `
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class ThingPlugin { beforeRename(_subject: ThingServiceInterface, id: number, name: string, extra: boolean): void { void [id, name, extra]; } }`,
  },
  AsyncOnSync: {
    'Plugin/ThingPlugin.ts': `
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class ThingPlugin { async afterCount(_subject: ThingServiceInterface, result: number): Promise<number> { return result; } }`,
  },
  MissingMethod: {
    'Plugin/ThingPlugin.ts': `
      import type { ThingInterface } from '../Api/Data/ThingInterface.js';
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class ThingPlugin {
        afterRename(_subject: ThingServiceInterface, result: ThingInterface): ThingInterface { return result; }
        afterRemove(_subject: ThingServiceInterface, result: unknown): unknown { return result; }
      }`,
  },
  Inherited: {
    'Plugin/BasePlugin.ts': `
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class BasePlugin { afterCount(_subject: ThingServiceInterface, result: number): string { return String(result); } }`,
    'Plugin/ThingPlugin.ts': `
      import { BasePlugin } from './BasePlugin.js';
      export class ThingPlugin extends BasePlugin {}`,
  },
  UnreadParent: {
    'Plugin/ThingPlugin.ts': `
      import { EventEmitter } from 'node:events';
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class ThingPlugin extends EventEmitter { afterCount(_subject: ThingServiceInterface, result: number): string { return String(result); } }`,
  },
  UnknownSubject: {
    'Plugin/ThingPlugin.ts': `
      export class ThingPlugin { beforeRename(_subject: unknown, id: number, name: string): [number, string] { return [id, name]; } }`,
  },
  Preference: {
    'Model/ThingService.ts': `
      export class ThingService { count(): number { return 1; } }`,
  },
  ObserverData: {
    'Observer/RenameObserver.ts': `
      import type { Observer } from '#framework';
      export class RenameObserver { execute(observer: Observer<{ thing: { sku: string } }>): void { void observer.getEvent().getData('thing').sku; } }`,
  },
  ExtensionType: {
    'Plugin/ThingPlugin.ts': `
      import type { ThingInterface } from '../Api/Data/ThingInterface.js';
      import type { ThingServiceInterface } from '../Api/ThingServiceInterface.js';
      export class ThingPlugin {
        afterRename(_subject: ThingServiceInterface, result: ThingInterface): ThingInterface {
          return { ...result, extension_attributes: { label_count: 'three' } };
        }
      }`,
  },
};

describe('setup:di:compile: what the compiler checks', function () {
  this.timeout(120_000);
  let root: string;
  /** tsc's messages (flattened) by case: "<file relative to the tree>: <message>". */
  const errors = new Map<string, string[]>();

  function writeModule(modulesDir: string, name: string, changes: Record<string, string>): void {
    for (const [file, text] of Object.entries({ ...FILES, ...changes })) {
      const target = path.join(modulesDir, 'Fixture', name, file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text.replaceAll('MODULE', name).replaceAll('EVENT', name.toLowerCase()));
    }
  }

  before(() => {
    mkdirSync(path.join(PROJECT_ROOT, 'var'), { recursive: true });
    root = mkdtempSync(path.join(PROJECT_ROOT, 'var', 'di-compile-'));
    const modulesDir = path.join(root, 'modules');
    for (const [name, changes] of Object.entries(CASES)) writeModule(modulesDir, name, changes);
    const result = compileDi({
      projectRoot: PROJECT_ROOT,
      modulesDirs: [modulesDir],
      outDir: path.join(root, 'generated'),
    });
    const plugins = Object.keys(CASES).map((name) =>
      path.join(modulesDir, 'Fixture', name, 'Plugin', 'ThingPlugin.ts'),
    );
    // The build's own compiler (TypeScript 7's tsc, app/bin/build.mjs) on the tree's files.
    writeFileSync(
      path.join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          experimentalDecorators: true,
          types: ['node'],
        },
        files: [...result.files.filter((f) => f.endsWith('.ts')), ...plugins],
      }),
    );
    const tsc = spawnSync(process.execPath, [NATIVE_TSC, '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: root,
      encoding: 'utf8',
    });
    // Each diagnostic: `<file>(<line>,<column>): error TS<code>: <message>`, or `error TS<code>: ...`
    // for one of no file, its chained messages on the lines after it, indented (as
    // ts.flattenDiagnosticMessageText joins them). Files are relative to the tree, `/`-separated.
    const diagnostics: { file: string; message: string }[] = [];
    for (const line of `${tsc.stdout}${tsc.stderr}`.split('\n').filter(Boolean)) {
      const start = /^(?:(.+)\(\d+,\d+\): )?error TS\d+: (.*)$/.exec(line);
      const last = diagnostics.at(-1);
      if (start) diagnostics.push({ file: start[1] ?? '', message: start[2]! });
      else if (last && line.startsWith(' ')) last.message += `\n${line}`;
      else diagnostics.push({ file: '', message: line });
    }
    for (const { file, message } of diagnostics) {
      const name = /Fixture_(\w+)\.ts$/.exec(file)?.[1] ?? /modules\/Fixture\/(\w+)\//.exec(file)?.[1] ?? '?';
      errors.set(name, [...(errors.get(name) ?? []), `${file}: ${message}`]);
    }
    if (tsc.status !== 0 && errors.size === 0) errors.set('?', [`tsc exited ${tsc.status}: ${tsc.stderr}`]);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const errorsOf = (name: string): string[] => errors.get(name) ?? [];

  it('should compile a plugin, preference and observer that fit, and type extension attributes (number, string[])', () => {
    expect(errorsOf('Good')).to.deep.equal([]);
    expect(errors.get('?'), 'no error outside the cases').to.equal(undefined);
  });

  it('should fail on a before plugin with a wrong parameter type, naming the class, its method and the target method', () => {
    const [error, ...more] = errorsOf('WrongParameter');
    expect(more).to.deep.equal([]);
    expect(error).to.match(
      /^generated\/di\/Fixture_WrongParameter\.ts: Type 'Pick<ThingPlugin, "beforeRename">' does not satisfy the constraint '\{ beforeRename: BeforePlugin<ThingServiceInterface, "rename">; \}'/,
    );
    expect(error).to.include("Type 'number' is not assignable to type 'string'");
  });

  it('should fail on an after plugin with a wrong return type', () => {
    const [error, ...more] = errorsOf('WrongReturn');
    expect(more).to.deep.equal([]);
    expect(error).to.include(
      `Type 'Pick<ThingPlugin, "afterRename">' does not satisfy the constraint '{ afterRename: AfterPlugin<ThingServiceInterface, "rename">; }'`,
    );
    expect(error).to.include("The types returned by 'afterRename(...)' are incompatible");
    // TypeScript 7 orders a union's members its own way (5.9 printed 'ThingInterface | Promise<...>').
    expect(error).to.include("Type 'string' is not assignable to type 'Promise<ThingInterface> | ThingInterface'");
  });

  it('should fail on a plugin that takes more arguments than the target passes', () => {
    const [error, ...more] = errorsOf('WrongArity');
    expect(more).to.deep.equal([]);
    expect(error).to.include(
      `Type 'Pick<ThingPlugin, "beforeRename">' does not satisfy the constraint '{ beforeRename: BeforePlugin<ThingServiceInterface, "rename">; }'`,
    );
    expect(error).to.include('Target signature provides too few arguments. Expected 4 or more, but got 3');
  });

  it('should keep a synchronous target synchronous: an async after plugin on it fails', () => {
    const [error, ...more] = errorsOf('AsyncOnSync');
    expect(more).to.deep.equal([]);
    expect(error).to.include("The types returned by 'afterCount(...)' are incompatible");
    expect(error).to.include("Type 'Promise<number>' is not assignable to type 'number'");
  });

  it('should fail on a plugin method for a method the target does not have', () => {
    const [error, ...more] = errorsOf('MissingMethod');
    expect(more).to.deep.equal([]);
    expect(error).to.include(
      `Type 'Pick<ThingPlugin, "afterRemove">' does not satisfy the constraint '{ afterRemove: NoSuchTargetMethod<ThingServiceInterface, "remove">; }'`,
    );
  });

  it('should check a plugin method the class inherits', () => {
    const [error, ...more] = errorsOf('Inherited');
    expect(more).to.deep.equal([]);
    expect(error).to.include(
      `Type 'Pick<ThingPlugin, "afterCount">' does not satisfy the constraint '{ afterCount: AfterPlugin<ThingServiceInterface, "count">; }'`,
    );
    expect(error).to.include("Type 'string' is not assignable to type 'number'");
  });

  it('should check the methods of a plugin whose parent class it cannot read, each once', () => {
    const [error, ...more] = errorsOf('UnreadParent');
    expect(more).to.deep.equal([]);
    expect(error).to.include(
      `Type 'Pick<ThingPlugin, "afterCount">' does not satisfy the constraint '{ afterCount: AfterPlugin<ThingServiceInterface, "count">; }'`,
    );
  });

  it('should refuse a subject typed unknown, as Magento refuses an untyped $subject, naming the type to write', () => {
    const [error, ...more] = errorsOf('UnknownSubject');
    expect(more).to.deep.equal([]);
    expect(error).to.include(
      `Type '"typed"' does not satisfy the constraint '"ThingPlugin::beforeRename: type its subject as Fixture\\\\UnknownSubject\\\\Api\\\\ThingServiceInterface, not unknown"'`,
    );
  });

  it('should fail on a preference class that does not implement its contract', () => {
    const [error, ...more] = errorsOf('Preference');
    expect(more).to.deep.equal([]);
    // TypeScript 7 names the missing member at once; 5.9 said "Type 'ThingService' does not satisfy
    // the constraint 'ThingServiceInterface'" and then this.
    expect(error).to.include(
      "Property 'rename' is missing in type 'ThingService' but required in type 'ThingServiceInterface'",
    );
  });

  it('should fail on an observer that expects data its event does not carry', () => {
    const [error, ...more] = errorsOf('ObserverData');
    expect(more).to.deep.equal([]);
    expect(error).to.include(
      "Type 'RenameObserver' does not satisfy the constraint 'ObserverOf<{ thing: ThingInterface; previous: string; }>'",
    );
    expect(error).to.include("Property 'sku' is missing in type 'ThingInterface'");
  });

  it('should type extension attributes as declared: a string where the XML says int fails', () => {
    const [error, ...more] = errorsOf('ExtensionType');
    expect(more).to.deep.equal([]);
    expect(error).to.match(
      /^modules\/Fixture\/ExtensionType\/Plugin\/ThingPlugin\.ts: Type 'string' is not assignable to type 'number'/,
    );
  });

  it('should leave extension attributes untyped on a data interface that declares no ...ExtensionInterface, saying what to add', () => {
    const modulesDir = path.join(root, 'untyped');
    writeModule(modulesDir, 'Untyped', {
      'Api/Data/ThingInterface.ts': `export interface ThingInterface { id: number; name: string }`,
    });
    const result = compileDi({
      projectRoot: PROJECT_ROOT,
      modulesDirs: [modulesDir],
      outDir: path.join(root, 'generated-untyped'),
    });
    expect(result.untyped).to.have.length(1);
    expect(result.untyped[0]).to.match(
      /extension attributes for Fixture\\Untyped\\Api\\Data\\ThingInterface stay untyped: .*ThingInterface\.ts exports no interface ThingExtensionInterface \(declare `export interface ThingExtensionInterface \{\}` there/,
    );
  });

  it('should check a module found in two of its folders once, from the first (a fixture copied into modules/)', () => {
    const first = path.join(root, 'copy-first');
    const second = path.join(root, 'copy-second');
    writeModule(first, 'Copied', {});
    writeModule(second, 'Copied', {});
    const result = compileDi({
      projectRoot: PROJECT_ROOT,
      modulesDirs: [first, second],
      outDir: path.join(root, 'generated-copied'),
    });
    const generated = result.files.filter((file) => file.endsWith('Fixture_Copied.ts'));
    expect(generated).to.have.length(1);
    expect(readFileSync(generated[0]!, 'utf8')).to.contain(path.join('copy-first', 'Fixture', 'Copied'));
  });
});
