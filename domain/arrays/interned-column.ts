import { FIRST_CAPACITY, growArray } from './grow-array.ts';

/**
 * A per-item column of values that few distinct ones fill (a provider's name, a result list, a
 * version key, null): each item's value kept as a number in an Int32Array, each distinct value
 * once. A JavaScript array a column, pushed to 100k times in `skrya rank`, had its backing store
 * allocated afresh at each growth and first touched page by page: those growths were about 6,000
 * of the ranking thread's page faults while it read (perf, session 38).
 */
export interface InternedColumn<V> {
  push(value: V): void;
  at(index: number): V;
}

export function createInternedColumn<V>(): InternedColumn<V> {
  const numbers = new Map<V, number>();
  const values: V[] = [];
  let column = new Int32Array(FIRST_CAPACITY);
  let length = 0;
  return {
    push(value) {
      let number = numbers.get(value);
      if (number === undefined) {
        number = values.length;
        values.push(value);
        numbers.set(value, number);
      }
      column = growArray(column, length + 1);
      column[length++] = number;
    },
    at: (index) => values[column[index]!]!,
  };
}
