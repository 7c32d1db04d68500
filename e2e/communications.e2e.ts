import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE } from './support/browser';
import { owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * /communications in a real browser against the built app: a template written with a variable
 * button, previewed on a real customer (their name and the pay-bill filled in, the SMS segments
 * counted), sent to that customer from their page, and found in the outbox; then the customer
 * tagged in their form and a segment made of that tag.
 */
const suite = startBrowserSuite({ database: 'postgres' });

async function post(request: APIRequestContext, url: string, data: unknown) {
  const { csrfToken } = (await (await request.get('/api/csrf-token')).json()) as { csrfToken: string };
  const response = await request.post(url, { headers: { 'x-csrf-token': csrfToken }, data });
  if (response.status() !== 201)
    throw new Error(`POST ${url}: ${response.status()} ${await response.text()}`);
  return response.json();
}

describe('communications page', () => {
  it('creates a template, previews it on a customer, sends it and shows it in the outbox', async () => {
    const first = await suite.open();
    expect((await first.context.request.post('/api/register', { data: owner })).status()).toBe(201);
    await first.context.close();

    const { page, context, errors } = await suite.openAs(owner, undefined, '/');
    const customer = await post(context.request, '/api/customers', {
      firstName: 'Wanjiru',
      lastName: 'Kamau',
      phone: '+254712345670',
      consents: { sms: true },
    });

    await page.goto('/communications');
    await page.getByTestId('button-new-template').click();
    await page.getByTestId('dialog-template-editor').waitFor();
    await page.getByTestId('button-save-template').click();
    expect(
      await page.getByTestId('dialog-template-editor').getByText('Give the template a name').count(),
    ).toBe(1);
    await page.getByTestId('input-template-name').fill('Harvest offer');
    await page.getByTestId('input-template-body').fill('Hi ');
    await page.getByTestId('button-variable-firstName').click();
    await page.getByTestId('input-template-body').press('End');
    await page.getByTestId('input-template-body').pressSequentially(', pay to paybill ');
    await page.getByTestId('button-variable-payBill').click();
    expect(await page.getByTestId('input-template-body').inputValue()).toBe(
      'Hi {{firstName}}, pay to paybill {{payBill}}',
    );

    await page.getByTestId('select-preview-customer').click();
    await page.getByTestId('select-preview-customer-search').fill('Wanjiru');
    await page.getByRole('option', { name: /Wanjiru Kamau/ }).click();
    await page.getByTestId('text-preview-body').waitFor();
    expect(await page.getByTestId('text-preview-body').textContent()).toBe(
      'Hi Wanjiru, pay to paybill 174379',
    );
    expect(await page.getByTestId('text-sms-estimate').textContent()).toContain('1 SMS segment');

    await page.getByTestId('button-save-template').click();
    await page.getByTestId('dialog-template-editor').waitFor({ state: 'detached' });
    await page.getByTestId('card-template-harvest_offer').waitFor();
    // A template never edited says when it was added, not "edited".
    expect(await page.getByTestId('row-template-harvest_offer-sms-en').textContent()).toMatch(
      /version 1 · added \d/,
    );

    // A single send from the customer's page, previewed before it goes.
    await page.goto(`/customers/${customer.id}`);
    await page.getByTestId('button-send-message').click();
    await page.getByTestId('dialog-send-message').waitFor();
    await page.getByTestId('select-send-template').selectOption('harvest_offer');
    await page.getByTestId('text-preview-body').waitFor();
    expect(await page.getByTestId('text-preview-body').textContent()).toBe(
      'Hi Wanjiru, pay to paybill 174379',
    );
    await page.getByTestId('button-confirm-send').click();
    await page.getByTestId('dialog-send-message').waitFor({ state: 'detached' });

    await page.goto('/communications?tab=outbox');
    const row = page.getByRole('row', { name: /Hi Wanjiru, pay to paybill 174379/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Wanjiru Kamau');

    // Tagged in the customer's form, then a segment by that tag counts her (and only her).
    await post(context.request, '/api/customers', {
      firstName: 'Otieno',
      lastName: 'Ouma',
      phone: '+254712345671',
      consents: { sms: true },
    });
    await page.goto(`/customers/${customer.id}?edit=1`);
    await page.getByTestId('input-tags').fill('Fund-A, harvest');
    await page.getByTestId('button-save-customer').click();
    await page.getByTestId('text-customer-tags').getByText('fund-a').waitFor();
    await page.goto('/communications?tab=segments');
    await page.getByTestId('button-new-segment').click();
    await page.getByTestId('input-segment-name').fill('Fund A');
    await page.getByTestId('checkbox-tag-fund-a').check();
    await page.getByTestId('text-segment-count').getByText('1 customer in this segment').waitFor();
    await page.getByTestId('button-save-segment').click();
    await page.getByTestId('dialog-segment').waitFor({ state: 'detached' });
    // The list refetches after the save: wait for the new row rather than read it at once.
    await page.getByTestId('panel-segments').getByText('tagged fund-a').waitFor();
    expect(errors).toEqual([]);
  });

  it('fits the providers tab on a phone, the callback addresses cut short beside their Copy buttons', async () => {
    const { page, context, errors } = await suite.openAs(owner, PHONE, '/communications');
    await page.getByTestId('tab-providers').click();
    await page.getByTestId('text-whatsapp-webhook-url').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await page.getByRole('button', { name: 'Copy Webhook callback URL' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
