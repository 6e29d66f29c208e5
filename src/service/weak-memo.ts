/**
 * `compute` remembered per argument object, for as long as the object lives. The agent passes the same
 * (immutable) events, messages and tool lists on every step, so what is worked out of them once holds.
 */
export function weakMemo<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const results = new WeakMap<K, V>();
  return (key) => {
    if (results.has(key)) return results.get(key) as V;
    const value = compute(key);
    results.set(key, value);
    return value;
  };
}
