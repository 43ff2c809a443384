/** A failed call resolves to the spec's fallback result instead of throwing (SPEC §8). */
export async function withFallback<T>(call: () => Promise<T>, fallback: T, label: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    console.error(label, error);
    return fallback;
  }
}

/** True for the values SPEC §5 treats as "not provided". */
export function isMissing(value: unknown): value is undefined | null | '' | never[] {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}
