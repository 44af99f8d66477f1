import type { Pipeline } from '../../runtime/pipeline.ts';
import type { CredentialRateLimiter } from '../../domain/skills/adapters/credential-rate-limiter.ts';
import { builtinSkills } from '../../domain/skills/builtin-skills.ts';
import { createSkillRegistry, type SkillRegistry } from '../../domain/skills/registry.ts';

/**
 * The retriever's skills: live adapters (real HTTP) unless SKRYA_SKILL_ADAPTERS=mock asks for the
 * recorded responses. Credentials are read from the environment by the names the declarations give.
 */
export async function createServiceSkillRegistry(pipeline: Pipeline, rateLimiter?: CredentialRateLimiter): Promise<SkillRegistry> {
  const registry = await createSkillRegistry({
    skills: builtinSkills(),
    adapters: pipeline.config.SKRYA_SKILL_ADAPTERS,
    env: pipeline.providerEnv,
    logger: pipeline.logger.child({ service: 'retriever' }),
    metrics: pipeline.metrics.skills,
    ...(rateLimiter ? { rateLimiter } : {}),
    limits: { maxDocumentBytes: pipeline.config.SKRYA_MAX_DOCUMENT_BYTES },
  });
  for (const entry of registry.report()) {
    if (entry.status === 'excluded') pipeline.logger.warn({ skill: entry.name, reason: entry.reason }, 'skill excluded');
  }
  return registry;
}
