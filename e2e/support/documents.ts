import type { Page } from 'playwright-core';

/** A KYC document's row on the customer page, by document type (id_front, selfie, ...). */
export const documentRow = (page: Page, type: string) =>
  page.locator(`[data-testid="list-documents"] [data-testid^="row-document-"][data-type="${type}"]`);

/** The id of the document in that row (its buttons' test ids end with it). */
export const documentIdOf = async (page: Page, type: string) =>
  ((await documentRow(page, type).getAttribute('data-testid')) ?? '').replace('row-document-', '');
