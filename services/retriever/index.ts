/** The retriever stage's public face: what the pipeline and the CLI use of it. */
export { loadBindingsFile, parseBindFlag, type Binding } from './bindings.ts';
export { createRetriever, requestContext } from './handler.ts';
export { routePlanSchema } from './router/route-plan.ts';
export { routeSources } from './router/route-sources.ts';
export { createServiceSkillRegistry } from './service-registry.ts';
export { createKafkaUsageLedger } from './tenancy/kafka-usage-ledger.ts';
export { loadTenantConfig } from './tenancy/tenant-config.ts';
export { createTenantRegistries } from './tenancy/tenant-registries.ts';
export { createUsageBook } from './tenancy/usage-ledger.ts';
