// Eight projects: unit (pure logic), integration (real FerretDB, MinIO and MailDev started by
// scripts/test.ts), e2e (headless Chromium through the real gateway), hostile (bad input, abuse, headers),
// faults (private stacks whose servers are stopped and restarted), deploy (Dockerfile, compose file and Helm
// chart, read as files), compose (the images built and docker-compose.yml run on podman) and kubernetes (the
// chart on a real cluster). `npm test` runs them all.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': tsJest },
  // Workspace packages are tested from source: no build needed between an edit and a test run.
  moduleNameMapper: {
    '^@logovote/(contracts|service-kit|models|media-pipeline|static-server)$': '<rootDir>/packages/$1/src/index.ts',
    '^@logovote/media-pipeline/(link-preview)$': '<rootDir>/packages/media-pipeline/src/$1.ts',
    '^@logovote/models/test-support$': '<rootDir>/packages/models/test/support/index.ts',
    '^@logovote/devstack$': '<rootDir>/scripts/devstack/src/index.ts',
    '^@logovote/contracts/(runtime-config|voter-order|verdict|limits|channel-link|logo-path|attribute-question|ranking)$':
      '<rootDir>/packages/contracts/src/$1.ts',
  },
};

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{packages,services,scripts,bench,mfes}/**/test/**/*.test.ts'],
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
      // Deployment files (docker-compose.yml as compose's own config reads it, the Helm chart rendered and
      // schema-checked) without an engine or a cluster.
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
    {
      ...shared,
      // The Helm chart installed on a single-node Kubernetes that the test starts and removes
      // (scripts/lib/kube-cluster.ts), with the images built from the Dockerfile.
      displayName: 'kubernetes',
      testMatch: ['<rootDir>/tests/kubernetes/**/*.test.ts'],
    },
  ],
};
