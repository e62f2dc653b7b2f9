/**
 * A value made when first asked for. For Intl formatters: each costs a few milliseconds to build (a
 * dozen, some 130 ms on a phone four times slower than a laptop), and one made at a module's top
 * level was built as soon as its module loaded, on every screen whose chunk carried it, shown or not.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
