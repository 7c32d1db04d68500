import type { Bucket } from '../../../domain';

/** The organisation's bucket lower bounds (1, 8, 31, ...) as labelled DPD ranges. */
export function bucketsFrom(bounds: readonly number[]): Bucket[] {
  const buckets: Bucket[] = [{ label: 'current', min: 0, max: 0 }];
  bounds.forEach((min, index) => {
    const next = bounds[index + 1];
    buckets.push({
      label: next === undefined ? `${min}+` : `${min}-${next - 1}`,
      min,
      max: next === undefined ? null : next - 1,
    });
  });
  return buckets;
}
