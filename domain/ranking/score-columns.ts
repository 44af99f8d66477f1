import type { FreshnessBasis } from './freshness.ts';
import { growArray } from '../arrays/grow-array.ts';
import { createInternedColumn } from '../arrays/interned-column.ts';
import type { ScoreWeights } from './intent-weights.ts';
import type { ItemScore, ScoreComponents } from './score-item.ts';

/**
 * Many items' scores kept in typed arrays instead of an object each: a run of 100k results
 * (`skrya rank`) would otherwise hold 100k component objects and as many copies of the weights,
 * about 200 bytes an item, until the run is ranked. `scoreAt` and `componentsAt` give back what
 * the scorer returned (same values, same key order, so serialized output does not change).
 */
export interface ScoreColumns {
  push(score: ItemScore): void;
  scoreAt(index: number): number | null;
  /** The item's weights (null when unscored), without building its components: the run's one shared copy, not to be changed. */
  weightsAt(index: number): Readonly<ScoreWeights> | null;
  componentsAt(index: number): ScoreComponents | null;
}

const BASES: readonly FreshnessBasis[] = ['published', 'estimated', 'undated'];
/** Per item: score, keyword, freshness, authority, rank. */
const NUMBERS = 5;
/** Per item: authority tier, freshness basis (-1: unscored), boosted, weights index. */
const SMALL = 4;

function sameWeights(a: ScoreWeights, b: ScoreWeights): boolean {
  return a.keyword === b.keyword && a.freshness === b.freshness && a.authority === b.authority && a.rank === b.rank && a.agreement === b.agreement;
}

export function createScoreColumns(): ScoreColumns {
  let numbers = new Float64Array(NUMBERS * 1024);
  let small = new Int32Array(SMALL * 1024);
  const dates: (string | null)[] = [];
  // A run's authority rules and versions are a few, each item's one of them.
  const rules = createInternedColumn<string | null>();
  const versions = createInternedColumn<string>();
  // A run scores with one set of weights; each item's copy of it is stored once.
  const weightsList: ScoreWeights[] = [];
  let count = 0;
  return {
    push({ score, components }) {
      const index = count++;
      numbers = growArray(numbers, NUMBERS * count);
      small = growArray(small, SMALL * count);
      numbers[NUMBERS * index] = score ?? Number.NaN;
      if (components === null) {
        small[SMALL * index + 1] = -1;
        dates.push(null);
        rules.push(null);
        versions.push('');
        return;
      }
      // Set one by one, not from an array literal or through a callback: this runs once an item, 100k times in `skrya rank`.
      const at = NUMBERS * index;
      numbers[at + 1] = components.keyword;
      numbers[at + 2] = components.freshness;
      numbers[at + 3] = components.authority;
      numbers[at + 4] = components.rank;
      let weightsIndex = 0;
      while (weightsIndex < weightsList.length && !sameWeights(weightsList[weightsIndex]!, components.weights)) weightsIndex++;
      if (weightsIndex === weightsList.length) weightsList.push({ ...components.weights });
      const smallAt = SMALL * index;
      small[smallAt] = components.authorityTier;
      small[smallAt + 1] = BASES.indexOf(components.freshnessBasis);
      small[smallAt + 2] = components.boosted ? 1 : 0;
      small[smallAt + 3] = weightsIndex;
      dates.push(components.freshnessDate);
      rules.push(components.authorityRule);
      versions.push(components.authorityVersion);
    },
    scoreAt(index) {
      const score = numbers[NUMBERS * index]!;
      return Number.isNaN(score) ? null : score;
    },
    weightsAt(index) {
      return small[SMALL * index + 1] === -1 ? null : weightsList[small[SMALL * index + 3]!]!;
    },
    componentsAt(index) {
      const basis = small[SMALL * index + 1]!;
      if (basis === -1) return null;
      return {
        keyword: numbers[NUMBERS * index + 1]!,
        freshness: numbers[NUMBERS * index + 2]!,
        authority: numbers[NUMBERS * index + 3]!,
        rank: numbers[NUMBERS * index + 4]!,
        authorityTier: small[SMALL * index]!,
        freshnessBasis: BASES[basis]!,
        freshnessDate: dates[index]!,
        authorityRule: rules.at(index),
        authorityVersion: versions.at(index),
        boosted: small[SMALL * index + 2] === 1,
        weights: { ...weightsList[small[SMALL * index + 3]!]! },
      };
    },
  };
}
