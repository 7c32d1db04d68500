import { describe, expect, it } from 'vitest';
import type { MessageTemplate } from '@/contracts/messages';
import { groupTemplates, sendableGroups } from './queries';
import { describeFilter } from './segments-tab';

const row = (key: string, language: string, builtin: boolean, channel: MessageTemplate['channel'] = 'sms') =>
  ({
    key,
    channel,
    language,
    name: key === 'receipt' ? 'Payment receipt' : 'Harvest offer',
    subject: null,
    builtin,
    body: 'x',
    version: 1,
    variables: ['firstName'],
    updatedAt: '2026-01-01T00:00:00.000Z',
  }) satisfies MessageTemplate;

describe('communications helpers', () => {
  it('groups every language and channel of a key together, and offers only staff-written keys to send', () => {
    const items = [
      row('receipt', 'en', true),
      row('harvest_offer', 'en', false),
      row('harvest_offer', 'sw', false),
    ];
    const groups = groupTemplates(items);
    expect(groups.map((g) => [g.key, g.rows.map((r) => r.language)])).toEqual([
      ['receipt', ['en']],
      ['harvest_offer', ['en', 'sw']],
    ]);
    expect(sendableGroups(items).map((g) => g.key)).toEqual(['harvest_offer']);
  });

  it('says a segment in words', () => {
    expect(describeFilter({})).toBe('every customer');
    expect(
      describeFilter({ buckets: ['1-30'], dpdMin: 5, regions: ['Coast'], categories: ['solar_home_system'] }),
    ).toBe('bucket 1-30; DPD 5–any; region Coast; solar home system');
  });
});
