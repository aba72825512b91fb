import path from 'node:path';
import { expect } from 'chai';
import { moduleConfigFileOf, moduleSourcesOf } from '../../../../app/bootstrap/config/moduleLocations.js';
import { DIST_ROOT, PROJECT_ROOT } from '../../../../app/bootstrap/config/paths.js';

describe('moduleLocations', () => {
  describe('moduleConfigFileOf', () => {
    let saved: string | undefined;
    beforeEach(() => (saved = process.env.MODULE_CONFIG_FILE));
    afterEach(() => {
      if (saved === undefined) delete process.env.MODULE_CONFIG_FILE;
      else process.env.MODULE_CONFIG_FILE = saved;
    });

    it('should answer the option when given', () => {
      process.env.MODULE_CONFIG_FILE = '/tmp/elsewhere.json';
      expect(moduleConfigFileOf({ moduleConfigFile: '/tmp/option.json' })).to.equal('/tmp/option.json');
    });

    // The lifecycle commands (module:enable, disable, uninstall) edit this file: it must be the one
    // the service and knexfile.ts read, not etc/config.json behind their back.
    it('should answer MODULE_CONFIG_FILE when no option is given', () => {
      process.env.MODULE_CONFIG_FILE = '/tmp/elsewhere.json';
      expect(moduleConfigFileOf({})).to.equal(path.resolve('/tmp/elsewhere.json'));
    });

    it('should answer etc/config.json when neither is set', () => {
      delete process.env.MODULE_CONFIG_FILE;
      expect(moduleConfigFileOf({})).to.equal(path.join(PROJECT_ROOT, 'etc', 'config.json'));
    });
  });

  describe('moduleSourcesOf', () => {
    it('should answer modules/ and its compiled copy unless told otherwise', () => {
      expect(moduleSourcesOf({})).to.deep.equal([
        { modulesDir: path.join(PROJECT_ROOT, 'modules'), codeDir: path.join(DIST_ROOT, 'modules') },
      ]);
      const own = [{ modulesDir: '/a', codeDir: '/b' }];
      expect(moduleSourcesOf({ moduleSources: own })).to.equal(own);
    });
  });
});
