import { describe, expect, it } from 'vitest';
import { InstanceCache } from './cache';

/** A load the test finishes when it chooses, counting how often it was started. */
function controlledLoads() {
  const started: Array<(value: string) => void> = [];
  return {
    started,
    load: () => new Promise<string>((resolve) => started.push(resolve)),
  };
}

describe('InstanceCache', () => {
  it('keeps a value until it is evicted', async () => {
    const cache = new InstanceCache<string>(60_000);
    let reads = 0;
    const load = async () => `v${++reads}`;
    expect(await cache.get('k', load)).toBe('v1');
    expect(await cache.get('k', load)).toBe('v1');
    cache.evict('*');
    expect(await cache.get('k', load)).toBe('v2');
  });

  it('shares one load between readers missing the same key at once', async () => {
    const cache = new InstanceCache<string>(60_000);
    const { started, load } = controlledLoads();
    const first = cache.get('k', load);
    const second = cache.get('k', load);
    expect(started).toHaveLength(1);
    started[0]?.('page');
    expect(await Promise.all([first, second])).toEqual(['page', 'page']);
  });

  it('does not keep a value loaded across an eviction, nor let a later reader join its load', async () => {
    const cache = new InstanceCache<string>(60_000);
    const { started, load } = controlledLoads();
    // Read before a write commits…
    const before = cache.get('k', load);
    // …the write commits and evicts while that read is under way.
    cache.evict('*');
    // A reader arriving after the commit must see it: a load of its own, not the one under way.
    const after = cache.get('k', load);
    expect(started).toHaveLength(2);
    // The newer read finishing first, the older last: the older must not overwrite it.
    started[1]?.('new');
    expect(await after).toBe('new');
    started[0]?.('old');
    expect(await before).toBe('old');
    // What stays cached is the value read after the eviction, never the older one.
    expect(await cache.get('k', async () => 'unexpected')).toBe('new');
  });

  it('gives a failed load to every reader sharing it and keeps nothing', async () => {
    const cache = new InstanceCache<string>(60_000);
    let fail = true;
    const load = async () => {
      if (fail) throw new Error('database down');
      return 'ok';
    };
    await expect(Promise.all([cache.get('k', load), cache.get('k', load)])).rejects.toThrow('database down');
    fail = false;
    expect(await cache.get('k', load)).toBe('ok');
  });

  it('evicts by a tag only the values kept with it', async () => {
    const cache = new InstanceCache<string>(60_000);
    let reads = 0;
    const load = async () => `v${++reads}`;
    expect(await cache.get('plain', load)).toBe('v1');
    expect(await cache.get('filtered', load, ['figures'])).toBe('v2');
    cache.evictTagged('figures');
    expect(await cache.get('plain', load)).toBe('v1');
    expect(await cache.get('filtered', load, ['figures'])).toBe('v3');
    // A whole eviction still clears both.
    cache.evict('*');
    expect(await cache.get('plain', load)).toBe('v4');
    expect(await cache.get('filtered', load, ['figures'])).toBe('v5');
  });

  it('does not keep a load under way across an eviction of its tag, but keeps one without the tag', async () => {
    const cache = new InstanceCache<string>(60_000);
    const tagged = controlledLoads();
    const plain = controlledLoads();
    const filtered = cache.get('filtered', tagged.load, ['figures']);
    const unfiltered = cache.get('plain', plain.load);
    cache.evictTagged('figures');
    // A reader of the tagged value after the eviction loads it again rather than join.
    const later = cache.get('filtered', tagged.load, ['figures']);
    expect(tagged.started).toHaveLength(2);
    tagged.started[0]?.('old');
    tagged.started[1]?.('new');
    plain.started[0]?.('total');
    expect([await filtered, await later, await unfiltered]).toEqual(['old', 'new', 'total']);
    expect(await cache.get('filtered', async () => 'unexpected', ['figures'])).toBe('new');
    expect(await cache.get('plain', async () => 'unexpected')).toBe('total');
  });

  it('keeps a versioned value for its version only, and shares a load only within one version', async () => {
    const cache = new InstanceCache<string>(60_000);
    const { started, load } = controlledLoads();
    const first = cache.get('page', load, [], '7');
    const sameVersion = cache.get('page', load, [], '7');
    const nextVersion = cache.get('page', load, [], '8');
    expect(started).toHaveLength(2);
    started[0]?.('at 7');
    started[1]?.('at 8');
    expect([await first, await sameVersion, await nextVersion]).toEqual(['at 7', 'at 7', 'at 8']);
    // One value per key, the last kept: version 8's. A reader of 7 (an older snapshot) loads again.
    expect(await cache.get('page', async () => 'unexpected', [], '8')).toBe('at 8');
    expect(await cache.get('page', async () => 'at 7 again', [], '7')).toBe('at 7 again');
    expect(await cache.get('page', async () => 'at 9', [], '9')).toBe('at 9');
  });
});
