import { describe, expect, it } from 'vitest';
import { featureSchema, TUTORIAL_CATEGORIES, tutorialSchema } from '@/contracts/help';
import { FEATURES, TUTORIALS } from '@/server/modules/help/content';
import { findArea } from '@/web/app/areas';
import { FEATURE_ICONS } from './feature-icons';

/**
 * The help content (src/server/modules/help/content.ts) checked without a browser: shapes,
 * unique ids, selectors that parse, pages that exist, icons the UI knows. The browser suite
 * (e2e/shell-services.e2e.ts) checks that each target is really on its page.
 */
describe('help content', () => {
  it('has at least 10 tutorials matching the contract, with unique ids', () => {
    expect(TUTORIALS.length).toBeGreaterThanOrEqual(10);
    for (const tutorial of TUTORIALS) expect(() => tutorialSchema.parse(tutorial), tutorial.id).not.toThrow();
    const ids = TUTORIALS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const used = new Set(TUTORIALS.map((t) => t.category));
    expect([...used].every((category) => TUTORIAL_CATEGORIES.includes(category))).toBe(true);
  });

  it.each(TUTORIALS.map((t) => [t.id, t] as const))(
    '%s: unique step ids, valid selectors, real pages',
    (_id, tutorial) => {
      expect(tutorial.steps.length).toBeGreaterThan(0);
      const stepIds = tutorial.steps.map((step) => step.id);
      expect(new Set(stepIds).size, 'step ids are unique').toBe(stepIds.length);
      // 'started' is the progress marker of a started tutorial, never a step.
      expect(stepIds).not.toContain('started');
      for (const step of tutorial.steps) {
        expect(step.path, `${step.id} names its page`).toBeTruthy();
        const pathname = (step.path ?? '').split('?')[0] ?? '';
        expect(findArea(pathname), `${step.path} is a route`).not.toBeNull();
        if (step.target) {
          const selector = step.target;
          expect(() => document.createDocumentFragment().querySelector(selector), selector).not.toThrow();
        }
      }
    },
  );

  it('lists features with known icons, dates and existing tutorials', () => {
    expect(FEATURES.length).toBeGreaterThan(0);
    const featureIds = FEATURES.map((f) => f.id);
    expect(new Set(featureIds).size).toBe(featureIds.length);
    for (const feature of FEATURES) {
      expect(() => featureSchema.parse(feature)).not.toThrow();
      expect(Object.keys(FEATURE_ICONS), feature.icon).toContain(feature.icon);
      expect(feature.addedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (feature.tutorialId) expect(TUTORIALS.map((t) => t.id)).toContain(feature.tutorialId);
    }
  });

  it('covers each of the five categories, on signed-in pages (the player lives in the signed-in shell)', () => {
    for (const category of TUTORIAL_CATEGORIES)
      expect(
        TUTORIALS.some((t) => t.category === category),
        category,
      ).toBe(true);
    expect(JSON.stringify(TUTORIALS)).not.toContain('"/calculator');
  });
});
