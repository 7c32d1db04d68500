import { describe, expect, it } from 'vitest';
import { activeContract, api, joinStaff, registerOwner } from './support/book';
import { accessibilityViolations } from './support/browser';
import { manager, owner } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * The WhatsApp test page in a real browser against the built app (issue 15 §6): a customer's
 * number asks for the balance through the signed webhook and gets their own figure, then asks for
 * a person, and the hand-off task appears on the dashboard of the customer's agent and on
 * /ai-customer-service. The book is set up through the API, as origination has its own tests.
 */
const suite = startBrowserSuite({ database: 'postgres' });

const PHONE = '+254712345678';

/** The owner (the customer's agent), a manager to approve, and an active contract. */
async function setUpBook(): Promise<{ contractNumber: string }> {
  const { session, admin } = await registerOwner(suite);
  const me = (await admin.get('/api/user')) as { id: string };
  const managerContext = await joinStaff(suite, admin, manager, 'manager');
  const { contractNumber } = await activeContract(admin, await api(managerContext.request), {
    customer: { phone: PHONE, assignedAgentId: me.id },
    controlKind: 'none',
    serialNumber: 'TS20-WA-1',
  });
  await managerContext.close();
  await session.context.close();
  return { contractNumber };
}

describe('WhatsApp test page', () => {
  it('asks for the balance, then for a person, and the staff task appears', async () => {
    const { contractNumber } = await setUpBook();
    const { page, errors } = await suite.openAs(owner, undefined, '/');

    await page.goto('/whatsapp-test');
    await page.getByTestId('input-wa-phone').fill(PHONE);
    await page.getByTestId('input-wa-text').fill('Hi, what is my balance?');
    await page.getByTestId('button-wa-send').click();
    await page.getByTestId('wa-result').waitFor();
    expect(await page.getByTestId('text-signature-result').textContent()).toContain('Signature verified');
    const answer = page.getByTestId('list-wa-lines').getByTestId('line-assistant').last();
    await answer.waitFor();
    expect(await answer.textContent()).toContain(`Your balance: ${contractNumber}`);
    expect(await page.getByTestId('json-inbound').textContent()).toContain('whatsapp_business_account');
    expect(await page.getByTestId('json-outbound').textContent()).toContain(
      '"messaging_product": "whatsapp"',
    );
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByTestId('input-wa-text').fill('I want to talk to a person');
    await page.getByTestId('button-wa-send').click();
    await page.getByTestId('list-wa-lines').getByText('I have asked a person from our team').waitFor();

    // The customer's agent (the owner here) sees the task on the dashboard, with the thread a click away.
    await page.goto('/');
    const card = page.getByTestId('card-my-tasks');
    await card.locator('[data-testid^="item-task-"]').first().waitFor();
    expect(await card.textContent()).toContain('The customer asked for a person: Amina');
    await card.locator('[data-testid^="link-task-thread-"]').first().click();
    await page.getByTestId('card-thread').waitFor();
    expect(await page.getByTestId('list-thread-lines').textContent()).toContain('I want to talk to a person');

    await page.goto('/ai-customer-service?tab=tasks');
    await page.locator('[data-testid^="item-task-"]').first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
