/** The public areas' paths (seed section 2), without their pages: what the router's first chunk needs. */
export const PUBLIC_PATHS = ['/customer', '/investor', '/calculator', '/demo'] as const;

/** The public area a location is in (the area itself or a page below it), or null. */
export function publicPathOf(location: string): string | null {
  return PUBLIC_PATHS.find((path) => location === path || location.startsWith(`${path}/`)) ?? null;
}
