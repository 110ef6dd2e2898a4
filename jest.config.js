/**
 * Test projects; `npm test` provisions the infrastructure and runs them all:
 *   unit (*.spec.ts beside the code, no I/O), deploy (k8s overlays, Dockerfile, compose), medium (stores, use cases
 *   and transports in the test's process, against a migrated PostgreSQL, Redis or loopback sockets), integration
 *   (real infrastructure, service processes started by the test), e2e (the whole stack through the gateway), chaos
 *   (under load while services crash and servers restart), fuzz (schemathesis: no input may give a 5xx).
 *   chaos-cluster (a three-node Kafka cluster losing nodes) runs only with CHAOS_CLUSTER=1, as `npm run chaos:cluster`
 *   sets it.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const moduleNameMapper = {
  '^@payments/contracts/fixtures$': '<rootDir>/libs/contracts/src/fixtures.ts',
  '^@payments/contracts/schemas$': '<rootDir>/libs/contracts/src/schemas.ts',
  '^@payments/contracts/dashboard-api$': '<rootDir>/libs/contracts/src/dashboard-api.ts',
  '^@payments/(.*)$': '<rootDir>/libs/$1/src/index.ts',
};

const common = { rootDir: __dirname, transform: { '^.+\\.ts$': swc }, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'] },
    // Renders the k8s overlays with kustomize (installed under .cache/ by scripts/deploy/tools.sh). apiserver.spec.ts
    // applies them to a real kube-apiserver built from source (minutes of compiling the first time, docs/deploy.md):
    // only with DEPLOY_APISERVER=1, as `npm run deploy:apiserver` sets it.
    {
      ...common,
      displayName: 'deploy',
      testMatch: ['<rootDir>/tests/deploy/**/*.spec.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...(process.env.DEPLOY_APISERVER === '1' ? [] : ['<rootDir>/tests/deploy/apiserver\\.spec\\.ts$']),
      ],
    },
    { ...common, displayName: 'medium', testMatch: ['<rootDir>/tests/medium/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
      slowTestThreshold: 60,
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'], slowTestThreshold: 60 },
    // Restarts the PostgreSQL, Redis and Kafka it runs on (through scripts/infra): only where
    // nothing else uses them, as in `npm test`.
    { ...common, displayName: 'chaos', testMatch: ['<rootDir>/tests/chaos/**/*.test.ts'], slowTestThreshold: 300 },
    ...(process.env.CHAOS_CLUSTER === '1'
      ? [
          {
            ...common,
            displayName: 'chaos-cluster',
            testMatch: ['<rootDir>/tests/chaos-cluster/**/*.test.ts'],
            slowTestThreshold: 600,
          },
        ]
      : []),
    { ...common, displayName: 'fuzz', testMatch: ['<rootDir>/tests/fuzz/**/*.test.ts'], slowTestThreshold: 300 },
  ],
};
