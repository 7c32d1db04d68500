/**
 * A one-shot signal between a test and work it started: `fire()` resolves `fired`. Tests use two
 * to hold a transaction open at a chosen point (it fires "taken" and waits on "release").
 */
export function signal(): { fired: Promise<void>; fire: () => void } {
  let fire = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fired, fire };
}
