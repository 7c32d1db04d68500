import type { Page } from 'playwright-core';

/** A KYC document's row on the customer page, by document type (id_front, selfie, ...). */
export const documentRow = (page: Page, type: string) =>
  page.locator(`[data-testid="list-documents"] [data-testid^="row-document-"][data-type="${type}"]`);

/** The id of the document in that row (its buttons' test ids end with it). */
export const documentIdOf = async (page: Page, type: string) =>
  ((await documentRow(page, type).getAttribute('data-testid')) ?? '').replace('row-document-', '');

/**
 * Uploads one KYC document through the customer page's form and waits until the upload is over:
 * its row in the list, then the form no longer busy and reset (no file chosen). The row can show
 * while the rest of the page is still refreshing, and the form resets only after that; the next
 * upload's type and file must be chosen after the reset, as a person would once the form is free.
 */
export async function uploadDocument(
  page: Page,
  type: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  await page.getByTestId('select-document-type').selectOption(type);
  await page.getByTestId('input-document-file').setInputFiles(file);
  await page.getByTestId('button-upload-document').click();
  await documentRow(page, type).waitFor();
  await page.locator('[data-testid="form-upload-document"][aria-busy="false"]').waitFor();
  await page.waitForFunction(
    () =>
      document.querySelector<HTMLInputElement>('[data-testid="input-document-file"]')?.files?.length === 0,
  );
}
