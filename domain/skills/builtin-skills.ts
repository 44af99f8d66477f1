import { braveNewsSearchSkill } from './providers/brave-news-search/skill.ts';
import { braveWebSearchSkill } from './providers/brave-web-search/skill.ts';
import { documentFetchSkill } from './providers/document-fetch/skill.ts';
import { exaSearchSkill } from './providers/exa-search/skill.ts';
import { feedReaderSkill } from './providers/feed-reader/skill.ts';
import { localFileSkill } from './providers/local-file/skill.ts';
import { siteSearchSkill } from './providers/site-search/skill.ts';
import { tavilySearchSkill } from './providers/tavily-search/skill.ts';
import type { SkillDefinition } from './types.ts';

/** Every provider skill Skrya ships, in the order the registry checks them. */
export function builtinSkills(): SkillDefinition[] {
  return [
    braveWebSearchSkill,
    braveNewsSearchSkill,
    exaSearchSkill,
    tavilySearchSkill,
    siteSearchSkill,
    feedReaderSkill,
    documentFetchSkill,
    localFileSkill,
  ];
}
