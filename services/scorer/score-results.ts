/**
 * The scorer's item steps, composed: each candidate of one provider response is validated,
 * screened, scored and given its verdict (steps/), with one scoring model. Pure: the same response
 * and model always give the same items, byte for byte.
 */
import type { ScoredItem } from '../../schemas/messages.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import type { Candidate, ResponseMessage } from './steps/normalize.ts';
import { createScoreStep } from './steps/score.ts';
import { createScreenStep } from './steps/screen.ts';
import { createValidateStep } from './steps/validate.ts';
import { createVerdictStep } from './steps/verdict.ts';

export function createResultsScorer(model: ScoringModel): (message: ResponseMessage, candidates: readonly Candidate[]) => ScoredItem[] {
  const validate = createValidateStep();
  const screen = createScreenStep(model.screening);
  const score = createScoreStep(model.ranking);
  const verdict = createVerdictStep(model);
  return (message, candidates) => {
    const scoreForRequest = score(message);
    return candidates.map((candidate) => verdict(message, scoreForRequest(screen(validate(message, candidate)))));
  };
}
