import { z } from 'zod';
import { providerResultSchema } from '../../schemas/ingest.ts';

/** Every provider skill answers with the same shape: provider-style results, nothing else. */
export const skillOutputSchema = z.object({ results: z.array(providerResultSchema.strict()) }).strict();
export type SkillOutput = z.infer<typeof skillOutputSchema>;
