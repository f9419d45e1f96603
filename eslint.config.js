import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TYPED_FILES = ['{functions,shared,infra,test,scripts}/**/*.ts', '*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // \`import { type A }\` keeps the module as an import under verbatimModuleSyntax (loaded at cold start for nothing).
      '@typescript-eslint/no-import-type-side-effects': 'error',
      'no-console': 'error',
    },
  },
  {
    // Type-aware rules, for the files tsconfig.json compiles (docs/switchboard-api.d.ts is generated and outside it).
    // A dropped promise hides its error and races whatever runs next: each one is awaited, or `void` with a reason.
    files: TYPED_FILES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    // Runtime code never reaches into the CDK app or the local runtime (docs/architecture.md "Rules of the house").
    files: ['shared/**/*.ts', 'functions/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/infra', '**/infra/**'],
              message: 'Runtime code (shared/, functions/) must not import infra/; the service catalogue lives in shared/catalogue/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Prettier keeps code within 140 columns (.prettierrc.json) but never breaks a string or a comment: comments are
    // wrapped by hand; a long message or description stays one string, so lines holding one are exempt. Not for
    // docs/switchboard-api.d.ts, which is generated.
    files: ['{functions,shared,infra,test,examples}/**/*.{ts,mjs}', '*.{ts,js}'],
    rules: {
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
