/**
 * What was found for the keys used last: at most `size` of them, and at least the last `size / 2`.
 * Two maps, the keys of now and of before: when now is full it becomes before, and the keys of
 * before that were not used again are let go. A key found in before moves to now. For what a
 * server finds once and reads again on later questions (a section's terms, a term's weight): kept
 * in a plain map, it grew with every section and word ever asked about, for the server's life.
 */
export class Recent<K, V> {
  #now = new Map<K, V>();
  #before = new Map<K, V>();
  readonly #half: number;

  constructor(size: number) {
    this.#half = Math.max(1, Math.floor(size / 2));
  }

  get(key: K): V | undefined {
    const found = this.#now.get(key);
    if (found !== undefined) return found;
    const before = this.#before.get(key);
    if (before !== undefined) this.set(key, before);
    return before;
  }

  set(key: K, value: V): void {
    if (this.#now.size >= this.#half) {
      this.#before = this.#now;
      this.#now = new Map();
    }
    this.#now.set(key, value);
  }

  /** Keys held, now and before. */
  get size(): number {
    return this.#now.size + this.#before.size;
  }
}
