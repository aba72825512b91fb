// Flat config: ESLint's and typescript-eslint's recommended rules over the whole tree.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layering } from './eslint.layering.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'var/', 'coverage/', 'generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: {
      // Plugin methods, express handlers and interface implementations often take arguments they
      // do not use (Magento's `$subject`); a leading underscore says so on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // TypeScript 7.0, the build's compiler, erases `as`/`satisfies` in a `new` callee holding a
      // call together with the parentheses: `new (f() as T).X()` becomes `new f().X()`, which calls
      // `f` as a constructor. Refused here, so that no module meets the bug (SharedState.ts did).
      'no-restricted-syntax': [
        'error',
        ...[
          'NewExpression > :matches(TSAsExpression, TSSatisfiesExpression).callee CallExpression',
          'NewExpression > MemberExpression.callee :matches(TSAsExpression, TSSatisfiesExpression) CallExpression',
        ].map((selector) => ({
          selector,
          message:
            'A type assertion around a call in a `new` callee is emitted without its parentheses by TypeScript 7: take the class into a variable first.',
        })),
      ],
    },
  },
  {
    // The container and the interceptor inspect arbitrary classes reflectively (prototype chains,
    // constructor sources, decorator metadata): there `Function` is exactly the type meant.
    files: ['app/framework/di/**/*.ts', 'app/framework/interception/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
  {
    // The framework never imports modules; a module reaches another only through its Api/.
    files: ['app/**/*.ts', 'modules/**/*.ts'],
    plugins: { layering },
    rules: { 'layering/imports': 'error' },
  },
  {
    // No import cycle between files or folders of app/, modules/ and the fixture modules of the
    // tests (the folder order: eslint.cycles.js).
    files: ['app/**/*.ts', 'modules/**/*.ts', 'test/fixtures/**/*.ts'],
    plugins: { layering },
    rules: {
      'layering/cycles': [
        'error',
        {
          roots: ['app', 'modules', 'test/fixtures'],
          // OAuth's request verifier is part of the token model, in a folder of its own for reading.
          parentChildFolders: [['modules/Dispensary/Integration/Model', 'modules/Dispensary/Integration/Model/Oauth']],
        },
      ],
    },
  },
);
