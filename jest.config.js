// Seven projects: unit (pure logic), integration (real FerretDB, MinIO and MailDev started by
// scripts/test.ts), e2e (headless Chromium through the real gateway), hostile (bad input, abuse, headers),
// faults (private stacks whose servers are stopped and restarted), deploy (Dockerfile, compose file and Helm
// chart, read as files) and compose (the images built and docker-compose.yml run on podman). `npm test` runs them all.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': tsJest },
  // Workspace packages are tested from source: no build needed between an edit and a test run.
  moduleNameMapper: {
    '^@logovote/(contracts|service-kit|models|media-pipeline|static-server)$': '<rootDir>/packages/$1/src/index.ts',
    '^@logovote/media-pipeline/(link-preview)$': '<rootDir>/packages/media-pipeline/src/$1.ts',
    '^@logovote/devstack$': '<rootDir>/scripts/devstack/src/index.ts',
    '^@logovote/contracts/(runtime-config|voter-order|verdict|limits)$': '<rootDir>/packages/contracts/src/$1.ts',
  },
};

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{packages,services,scripts,mfes}/**/test/**/*.test.ts'],
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
    {
      ...shared,
      // The bad-input corpus, abuse limits, headers and cookies, against the shared stack through the gateway.
      displayName: 'hostile',
      testMatch: ['<rootDir>/tests/hostile/**/*.test.ts'],
      setupFiles: ['<rootDir>/tests/support/require-stack.ts'],
      setupFilesAfterEnv: ['<rootDir>/tests/support/browser-timeouts.ts'],
    },
    {
      ...shared,
      // Fault tests: each file starts a private stack (scripts/lib/stack.ts) and stops and restarts its servers.
      displayName: 'faults',
      testMatch: ['<rootDir>/tests/faults/**/*.test.ts'],
    },
    {
      ...shared,
      // Deployment files (Dockerfiles, docker-compose.yml, the Helm chart) checked without a Docker engine or a
      // cluster; the Dockerfile reproduction also starts each image against the stack's FerretDB and MinIO.
      displayName: 'deploy',
      testMatch: ['<rootDir>/tests/deploy/**/*.test.ts'],
    },
    {
      ...shared,
      // The images built with podman and docker-compose.yml brought up by Docker's compose CLI on podman's API
      // (tests/compose/compose-stack.ts), used through the published gateway port, then taken down.
      displayName: 'compose',
      testMatch: ['<rootDir>/tests/compose/**/*.test.ts'],
    },
  ],
};
