/** Layer rules (see docs/architecture.md): checked in CI, not by memory. */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'The domain knows nothing of HTTP, SQL, the CLI, configuration or Node built-ins.',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { pathNot: '^src/domain', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-imports-no-packages',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'core'] },
    },
    {
      name: 'ports-name-only-the-domain',
      severity: 'error',
      from: { path: '^src/ports' },
      to: { pathNot: '^src/(ports|domain)' },
    },
    {
      name: 'use-cases-use-ports-not-adapters',
      severity: 'error',
      from: { path: '^src/app' },
      to: { path: '^src/(adapters|http|cli|server)' },
    },
    {
      name: 'adapters-do-not-reach-up',
      severity: 'error',
      from: { path: '^src/adapters' },
      to: { path: '^src/(app|http|cli|server)' },
    },
    {
      name: 'http-does-not-touch-storage',
      severity: 'error',
      from: { path: '^src/http' },
      to: { path: '^src/(adapters|cli|server)' },
    },
    {
      name: 'dashboard-does-not-touch-storage',
      comment: 'The dashboard is a driving adapter: it calls use cases, never the store or the CLI.',
      severity: 'error',
      from: { path: '^src/web' },
      to: { path: '^src/(adapters|cli|server)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '\\.test\\.ts$' },
  },
};
