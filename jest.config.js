// Three projects: unit (pure logic), integration (real FerretDB, MinIO and MailDev started by
// scripts/test.ts) and e2e (headless Chromium through the real gateway). `npm test` runs all three.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': tsJest },
  // Workspace packages are tested from source: no build needed between an edit and a test run.
  moduleNameMapper: { '^@logovote/(contracts|service-kit|models|devstack|static-server)$': '<rootDir>/packages/$1/src/index.ts' },
};

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{packages,services,scripts}/**/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.int\\.test\\.ts$'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{packages,services}/**/test/**/*.int.test.ts'],
      setupFiles: ['<rootDir>/tests/support/require-stack.ts'],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
      setupFiles: ['<rootDir>/tests/support/require-stack.ts'],
      setupFilesAfterEnv: ['<rootDir>/tests/support/browser-timeouts.ts'],
    },
  ],
};
