import { deflateSync } from 'node:zlib';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, PHONE, screenshot } from './support/browser';
import { documentIdOf, documentRow, uploadDocument } from './support/documents';
import { inviteThroughBrowser } from './support/invite';
import { agent, expectPath, owner, register } from './support/session';
import { startBrowserSuite } from './support/suite';

/**
 * Customers and KYC in a real browser against the built app: a customer created through the form
 * (field messages first), a duplicate phone refused naming the customer who has it, a PNG and a
 * PDF uploaded and previewed, the uploader unable to review, a second person verifying one and
 * rejecting the other with a reason, the list searched and exported, an edit, a missing customer,
 * and axe scans of the list and the profile on desktop and phone.
 */

const suite = startBrowserSuite();
let customerPath = '';
let accountNumber = '';

const toastText = (page: Page, text: string) => page.getByTestId('toast').getByText(text, { exact: true });

/** A real PNG (a card-like picture), so that the preview has something to draw. */
function samplePng(width = 320, height = 200): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const band = y < 40;
      const photo = x > 20 && x < 110 && y > 60 && y < 180;
      const [r, g, b] = band ? [20, 90, 160] : photo ? [200, 170, 140] : [235, 240, 245];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function samplePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([420, 300]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Nairobi Water - bill for May 2026', {
    x: 30,
    y: 250,
    size: 16,
    font,
    color: rgb(0.1, 0.2, 0.5),
  });
  page.drawText('Amina Otieno, Moi Avenue 12, Nairobi', { x: 30, y: 220, size: 12, font });
  return Buffer.from(await pdf.save());
}

describe('customers and KYC in Chromium', () => {
  it('registers the owner, sets the organisation in Kenya and invites an agent', async () => {
    const { context, page, errors } = await suite.open();
    await register(page, owner);

    const status = await page.evaluate(async () => {
      const { csrfToken } = await (await fetch('/api/csrf-token')).json();
      const { updatedAt: _updatedAt, ...current } = await (await fetch('/api/settings/organisation')).json();
      const response = await fetch('/api/settings/organisation', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ ...current, country: 'KE', currency: 'KES', timeZone: 'Africa/Nairobi' }),
      });
      return response.status;
    });
    expect(status).toBe(200);

    await inviteThroughBrowser(suite, page, agent, 'Agent');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates a customer through the form, field messages first, and refuses a duplicate phone naming the customer', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/customers');
    await page.getByTestId('empty-customers').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('button-new-customer').click();
    await expectPath(page, '/customers/new');

    await page.getByTestId('input-first-name').fill('Amina');
    await page.getByTestId('input-phone').fill('12345');
    await page.getByTestId('button-save-customer').click();
    expect(await page.getByTestId('error-customer-lastName').textContent()).toBe('Last name is required');
    expect(await page.getByTestId('error-customer-phone').textContent()).toContain(
      'Enter a valid phone number: a KE number',
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'customers-new-errors');

    await page.getByTestId('input-last-name').fill('Otieno');
    await page.getByTestId('input-phone').fill('0712 345 678');
    await page.getByText('Saved as +254 712 345678').waitFor();
    await page.getByTestId('input-other-names').fill('Wanjiru');
    await page.getByTestId('input-email').fill('amina.otieno@example.com');
    await page.getByTestId('input-national-id').fill('12 345 678');
    await page.getByTestId('input-date-of-birth').fill('1990-05-17');
    await page.getByTestId('select-gender').selectOption('female');
    await page.getByTestId('input-address').fill('Moi Avenue 12');
    await page.getByTestId('input-region').fill('Nairobi');
    await page.getByTestId('input-occupation').fill('Tailor');
    await page.getByTestId('select-employment').selectOption('self_employed');
    await page.getByTestId('input-monthly-income').fill('45,000');
    await page.getByTestId('checkbox-consent-sms').check();
    await page.getByTestId('checkbox-consent-dataProcessing').check();
    await page.getByTestId('button-save-customer').click();
    await expectPath(page, /^\/customers\/[0-9a-f-]{36}$/);
    customerPath = new URL(page.url()).pathname;
    await expect.poll(() => page.getByTestId('text-page-title').textContent()).toBe('Amina Wanjiru Otieno');
    accountNumber = (await page.getByTestId('text-account-number').textContent()) ?? '';
    expect(accountNumber).toMatch(/^C-\d{6}$/);
    expect(await page.getByTestId('text-customer-phone').textContent()).toBe('+254 712 345678');
    expect(await page.getByTestId('text-customer-income').textContent()).toContain('45,000.00');
    expect(await page.getByTestId('text-consent-sms').getAttribute('data-given')).toBe('true');
    expect(await page.getByTestId('text-consent-marketing').getAttribute('data-given')).toBe('false');
    expect(await page.getByTestId('text-kyc-status').getAttribute('data-status')).toBe('not_started');
    expect(await page.getByTestId('row-factor-employment').textContent()).toContain('Self-employed');

    // The same phone typed another way belongs to Amina: refused, with a link to her.
    await page.goto('/customers/new');
    await page.getByTestId('input-first-name').fill('Baraka');
    await page.getByTestId('input-last-name').fill('Mwangi');
    await page.getByTestId('input-phone').fill('+254 712 345 678');
    await page.getByTestId('button-save-customer').click();
    const message = page.getByTestId('error-customer-phone');
    await message.waitFor();
    expect(await message.textContent()).toBe(
      `This phone number already belongs to Amina Wanjiru Otieno (${accountNumber})`,
    );
    const link = page.getByTestId('link-duplicate-customer');
    await expect.poll(() => link.getAttribute('href')).toBe(customerPath);
    await screenshot(page, 'customers-duplicate-phone');
    await page.getByTestId('input-phone').fill('0722 000 111');
    await page.getByTestId('input-region').fill('Mombasa');
    await page.getByTestId('button-save-customer').click();
    await expectPath(page, /^\/customers\/[0-9a-f-]{36}$/);
    expect(new URL(page.url()).pathname).not.toBe(customerPath);

    await page.goto('/customers/new');
    await page.getByTestId('input-first-name').fill('Other');
    await page.getByTestId('input-last-name').fill('Person');
    await page.getByTestId('input-phone').fill('0733 111 222');
    await page.getByTestId('button-save-customer').click();
    await expectPath(page, /^\/customers\/[0-9a-f-]{36}$/);
    // And the link from a duplicate opens the customer who has the number.
    await page.goto('/customers/new');
    await page.getByTestId('input-first-name').fill('Third');
    await page.getByTestId('input-last-name').fill('Try');
    await page.getByTestId('input-phone').fill('0712345678');
    await page.getByTestId('button-save-customer').click();
    await expect
      .poll(() => page.getByTestId('link-duplicate-customer').getAttribute('href'))
      .toBe(customerPath);
    await page.getByTestId('link-duplicate-customer').click();
    await expectPath(page, customerPath);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('uploads a PNG and a PDF, previews both, and tells the uploader another person must review', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto(customerPath);
    await page.getByTestId('empty-documents').waitFor();

    // Too large: refused before sending.
    await page.getByTestId('input-document-file').setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    expect(await page.getByTestId('error-document-file').textContent()).toContain('the limit is 10 MB');

    const uploads = [
      ['id_front', 'id-front.png', 'image/png', samplePng()],
      ['selfie', 'selfie.png', 'image/png', samplePng(200, 240)],
      ['proof_of_address', 'water-bill.pdf', 'application/pdf', await samplePdf()],
    ] as const;
    for (const [type, name, mimeType, buffer] of uploads) {
      await uploadDocument(page, type, { name, mimeType, buffer });
    }
    // A file that is not what its name says is refused by the server, with its message.
    await page.getByTestId('select-document-type').selectOption('other');
    await page.getByTestId('input-document-file').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('just some text, not a picture'),
    });
    await page.getByTestId('button-upload-document').click();
    expect(await page.getByTestId('error-document-file').textContent()).toBe(
      'Only JPEG, PNG or PDF files are accepted; this file is none of them (whatever its name says)',
    );
    await expect.poll(() => page.getByTestId('text-kyc-status').getAttribute('data-status')).toBe('pending');

    const idFront = await documentIdOf(page, 'id_front');
    expect(await page.getByTestId(`text-own-upload-${idFront}`).textContent()).toBe(
      'You uploaded this document; another person must review it',
    );
    expect(await page.getByTestId(`button-verify-${idFront}`).count()).toBe(0);

    await page.getByTestId(`button-preview-${idFront}`).click();
    const dialog = page.getByTestId('dialog-document-preview');
    await dialog.waitFor();
    const image = dialog.getByTestId('img-document-preview');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'customers-preview-image');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const bill = await documentIdOf(page, 'proof_of_address');
    await page.getByTestId(`button-preview-${bill}`).click();
    const frame = dialog.getByTestId('frame-document-preview');
    await frame.waitFor();
    const src = (await frame.getAttribute('src')) ?? '';
    const file = await page.request.get(src);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await page.waitForTimeout(500);
    await screenshot(page, 'customers-preview-pdf');
    await page.keyboard.press('Escape');

    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'customers-detail-uploaded');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a second person verify the ID and reject the selfie with a reason', async () => {
    const { context, page, errors } = await suite.openAs(agent);
    await page.goto(customerPath);
    await documentRow(page, 'id_front').waitFor();
    const idFront = await documentIdOf(page, 'id_front');
    const selfie = await documentIdOf(page, 'selfie');

    await page.getByTestId(`button-verify-${idFront}`).click();
    await expect
      .poll(() => page.getByTestId(`text-document-status-${idFront}`).getAttribute('data-status'))
      .toBe('verified');
    await toastText(page, 'ID (front) verified').waitFor();

    // Reviewing from the preview: Reject there asks for the reason.
    await page.getByTestId(`button-preview-${selfie}`).click();
    await page.getByTestId('dialog-document-preview').getByTestId('button-reject-dialog').click();
    const reject = page.getByTestId('dialog-reject-document');
    await reject.waitFor();
    await reject.getByTestId('button-confirm-reject').click();
    expect(await reject.getByTestId('error-reject-reason').textContent()).toBe(
      'Give the reason for rejecting',
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await reject.getByTestId('input-reject-reason').fill('Photo is blurred');
    await screenshot(page, 'customers-reject-dialog');
    await reject.getByTestId('button-confirm-reject').click();
    await reject.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId(`text-document-status-${selfie}`).getAttribute('data-status'))
      .toBe('rejected');
    expect(await page.getByTestId(`text-rejection-reason-${selfie}`).textContent()).toBe(
      'Reason: Photo is blurred',
    );
    await expect.poll(() => page.getByTestId('text-kyc-status').getAttribute('data-status')).toBe('rejected');
    expect(await page.getByTestId('text-kyc-rejection').textContent()).toBe('Selfie: Photo is blurred');
    await expect
      .poll(() => page.getByTestId('list-timeline').textContent())
      .toContain('Selfie rejected: Photo is blurred');
    // The verified ID scores on the card.
    expect(await page.getByTestId('row-factor-kyc').textContent()).toContain('complete: ID verified');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'customers-detail-reviewed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches the list and exports it, edits a customer, and fits a phone', async () => {
    const { context, page, errors } = await suite.openAs(owner);
    await page.goto('/customers');
    await page.getByTestId('table-customers').waitFor();
    expect(await page.locator('[data-testid^="row-customers-"]').count()).toBe(3);
    // A sortable column's header reads like the others (Chromium gives a button text-transform: none).
    const headerCases = await page
      .locator('[data-testid="table-customers"] thead th')
      .evaluateAll((cells) =>
        cells.map((cell) => getComputedStyle(cell.querySelector('button') ?? cell).textTransform),
      );
    expect(new Set(headerCases)).toEqual(new Set(['uppercase']));
    await page.getByTestId('input-search-customers').fill(accountNumber);
    await page.waitForURL((url) => url.searchParams.get('q') === accountNumber);
    await expect.poll(() => page.locator('[data-testid^="row-customers-"]').count()).toBe(1);
    const exportHref = (await page.getByTestId('link-export-customers').getAttribute('href')) ?? '';
    expect(exportHref).toContain('format=csv');
    expect(exportHref).toContain(`q=${accountNumber}`);
    const csv = await page.request.get(exportHref);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(accountNumber);

    await page.getByTestId('button-clear-customers').click();
    await page.getByTestId('select-filter-kyc-status').selectOption('rejected');
    await expect.poll(() => page.locator('[data-testid^="row-customers-"]').count()).toBe(1);
    await page.getByTestId('select-filter-kyc-status').selectOption('');
    await page.getByTestId('input-search-customers').fill('0722000111');
    await expect
      .poll(() => page.locator('[data-testid^="row-customers-"]').textContent())
      .toContain('Baraka');
    await page.getByTestId('button-clear-customers').click();
    await page.getByTestId('sort-customers-name').click();
    await expect
      .poll(() => page.locator('[data-testid^="row-customers-"]').first().textContent())
      .toContain('Baraka Mwangi');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'customers-list');

    // Edit: the row opens the profile; Edit, change, save.
    await page.locator('[data-testid^="row-customers-"]', { hasText: 'Amina' }).getByRole('link').click();
    await expectPath(page, customerPath);
    await page.getByTestId('button-edit-customer').click();
    await page.getByTestId('input-region').fill('Kisumu');
    await page.getByTestId('checkbox-consent-marketing').check();
    expect(await page.getByTestId('text-consent-status-marketing').textContent()).toBe(
      'Will be recorded as given when you save',
    );
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'customers-edit');
    await page.getByTestId('button-save-customer').click();
    await toastText(page, 'Customer saved').waitFor();
    expect(await page.getByTestId('text-customer-region').textContent()).toBe('Kisumu');
    expect(await page.getByTestId('text-consent-marketing').getAttribute('data-given')).toBe('true');
    await expect
      .poll(() => page.getByTestId('list-timeline').textContent())
      .toContain('Marketing consent given');
    expect(errors).toEqual([]);
    await context.close();

    const phone = await suite.openAs(owner, PHONE);
    await phone.page.goto('/customers');
    await phone.page.getByTestId('table-customers').waitFor();
    expect(await accessibilityViolations(phone.page)).toEqual([]);
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone.page, 'customers-list-phone');
    await phone.page.goto(customerPath);
    await phone.page.getByTestId('card-documents').waitFor();
    await phone.page.getByTestId('list-timeline').waitFor();
    expect(await accessibilityViolations(phone.page)).toEqual([]);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await screenshot(phone.page, 'customers-detail-phone');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('says "Customer not found" for an id that does not exist or is not an id', async () => {
    const { context, page, errors } = await suite.openAs(agent);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      await page.goto(`/customers/${id}`);
      await page.getByTestId('card-customer-not-found').waitFor();
      expect(await page.getByTestId('text-page-title').textContent()).toBe('Customer not found');
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('link-back-customers').click();
    await expectPath(page, '/customers');
    expect(errors).toEqual([]);
    await context.close();
  });
});
