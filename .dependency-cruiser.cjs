/**
 * The boundaries of the code, checked by `npm test` (dependency-cruiser):
 * pages -> islands -> lib; server routes -> services -> repositories; src/lib is framework-free
 * and knows nothing of the server; the server uses only the shared part of src/lib.
 */
/** The part of src/lib the server may use: the contract, the tables, pure validation, i18n, the WOFF unpacking (fonts made ready at processing time). */
const SHARED_LIB =
  '^src/lib/(api/(errors|headers|limits|route|wire)\\.ts|api/contracts/|api/routes/|policy/|validation/|i18n/|block-lists/|navigation/(sitemap|routes|bots|error-route)\\.ts|catalogue/poster\\.ts|subtitles/woff\\.ts|image/provider\\.ts|share/(share|feeds)\\.ts|photo/picture\\.ts|config\\.ts)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be understood or tested alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-is-framework-free',
      severity: 'error',
      comment:
        'src/lib holds logic shared by the browser and the server: no React, no server, no islands, pages or components.',
      from: { path: '^src/lib/' },
      to: {
        path: [
          '^server/',
          '^src/(islands|pages|components|layouts)/',
          '^node_modules/(react|react-dom|@nanostores/react)/',
        ],
      },
    },
    {
      name: 'server-uses-shared-lib-only',
      severity: 'error',
      comment:
        'The server may use the contract, the route and policy tables, pure validation and the i18n catalogs; nothing of the browser.',
      from: { path: '^(server|scripts)/' },
      to: { path: '^src/', pathNot: [SHARED_LIB] },
    },
    {
      name: 'server-never-imports-site',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/(islands|pages|components|layouts)/' },
    },
    {
      name: 'no-zod-in-the-browser',
      severity: 'error',
      comment:
        'Browser code takes types from contracts/<family>.ts and plain values from contracts/<family>.constants.ts: zod would add ~25 KB to every page that imports a value.',
      from: {
        path: [
          '^src/(islands|components)/',
          '^src/lib/(shell|stores|player|danmaku|upload|theme|catalogue|block-lists)/',
          '^src/lib/api/(calls/|client\\.ts|http\\.ts)',
        ],
      },
      to: {
        path: ['^src/lib/api/contracts/[^/]+(?<!\\.constants)\\.ts$', '^src/lib/api/routes/', '^node_modules/zod/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'shell-does-not-import-islands',
      severity: 'error',
      comment: 'The shell script runs on every page; islands load only where a page places them.',
      from: { path: '^src/lib/shell/' },
      to: { path: '^src/islands/' },
    },
    {
      name: 'handlers-never-touch-the-database',
      severity: 'error',
      comment: 'Handlers receive services (server/services/index.ts); SQL lives below them.',
      from: { path: '^server/app/' },
      to: { path: ['^server/db/', '^node_modules/kysely/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'sql-lives-in-repositories',
      severity: 'error',
      comment:
        'Services hold the business rules, media pipelines and jobs call them or the repositories (server/repositories/); only those write SQL.',
      from: { path: '^server/(services|auth|domain|media|jobs|demo|site|http|app)/' },
      to: {
        path: ['^node_modules/kysely/', '^server/db/(database|pglite-pool|migrations)'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'services-know-no-http',
      severity: 'error',
      comment: 'Services throw domain errors (server/domain/errors.ts); only server/app maps them to HTTP.',
      from: { path: '^server/(services|domain|media|auth|jobs)/' },
      to: { path: ['^server/app/', '^node_modules/hono/'], pathNot: ['^node_modules/hono/dist/utils/cookie'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
    exclude: { path: ['^dist/', '^node_modules/', '\\.astro/'] },
  },
};
