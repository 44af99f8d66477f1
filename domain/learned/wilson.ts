/** Wilson score interval for a binomial proportion (95 % by default): honest bounds on small sets. */
export interface Proportion {
  successes: number;
  trials: number;
  rate: number;
  low: number;
  high: number;
}

export function wilson(successes: number, trials: number, z = 1.96): Proportion {
  if (trials === 0) return { successes, trials, rate: 0, low: 0, high: 0 };
  const rate = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (rate + (z * z) / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((rate * (1 - rate)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return { successes, trials, rate: round(rate), low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) };
}

export function formatProportion(proportion: Proportion): string {
  return `${proportion.rate.toFixed(3)} [${proportion.low.toFixed(3)}, ${proportion.high.toFixed(3)}] (${proportion.successes}/${proportion.trials})`;
}
