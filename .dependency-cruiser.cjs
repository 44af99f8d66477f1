/**
 * The layers (BLUEPRINT §9): runtime/ → domain/ → services/<stage>/ (peers, one entry module each) → cli/.
 * `npm run lint:deps` fails on a cycle or on an import that crosses the layers the wrong way.
 */
const STAGE_ENTRY = '^services/[^/]+/index\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle makes load order matter and the layers meaningless.',
      from: {},
      // A cycle through type imports only is erased at run time (a registry and the skills it runs name each other's types).
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-cross-stage-internals',
      severity: 'error',
      comment: 'Stages are peers: one stage never reaches into another; shared code lives in domain/.',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/[^/]+/', pathNot: ['^services/$1/', STAGE_ENTRY] },
    },
    {
      name: 'only-replay-composes-stages',
      severity: 'error',
      comment: 'Replay runs the stages in-process, through their entry modules; no other stage imports a stage.',
      from: { path: '^services/([^/]+)/', pathNot: '^services/replay/' },
      to: { path: STAGE_ENTRY, pathNot: '^services/$1/' },
    },
    {
      name: 'cli-uses-stage-entries',
      severity: 'error',
      comment: 'The CLI, the scripts and the pipeline wiring import a stage through its entry module only (benchmarks and tests may measure its insides).',
      from: { path: '^(cli/|ui/|scripts/|services/[^/]+\\.ts$)' },
      to: { path: '^services/[^/]+/', pathNot: STAGE_ENTRY },
    },
    {
      name: 'domain-below-stages',
      severity: 'error',
      comment: 'Shared domain code imports no stage and no CLI.',
      from: { path: '^domain/' },
      to: { path: '^(services|cli|ui|bench|scripts)/' },
    },
    {
      name: 'runtime-at-the-bottom',
      severity: 'error',
      comment: 'The runtime knows nothing of the domain, the stages or the CLI.',
      from: { path: '^runtime/' },
      to: { path: '^(domain|services|cli|ui|bench|scripts)/' },
    },
    {
      name: 'kafka-only-in-runtime',
      severity: 'error',
      comment: 'kafkajs and the registry client are used through runtime/ (the local stack and tests aside).',
      from: { path: '^(domain|services|cli|ui|schemas|topics)/', pathNot: '\\.test\\.ts$' },
      to: { path: 'node_modules/(kafkajs|@kafkajs/confluent-schema-registry)/' },
    },
    {
      name: 's3-only-in-runtime',
      severity: 'error',
      comment: 'The S3 client is used through runtime/sink-store.ts, the sink\'s one storage interface (tests and the local S3 server aside).',
      from: { path: '^(domain|services|cli|ui|schemas|topics)/', pathNot: '\\.test\\.ts$' },
      to: { path: 'node_modules/@aws-sdk/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.skrya)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
