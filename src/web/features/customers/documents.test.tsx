import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KYC_MAX_FILE_BYTES, type KycDocument } from '@/contracts/customers';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { fileProblem, OWN_UPLOAD_MESSAGE, rejectReasonProblem, reviewState } from './document-rules';
import { DocumentsCard } from './documents-card';
import { useCustomer } from './queries';
import {
  agent,
  apiError,
  CUSTOMER_ID,
  makeCustomer,
  makeDocument,
  reviewer,
  stubApi,
  viewer,
} from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

const pending = makeDocument();
const fileOf = (size: number, type: string, name = 'scan') => {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

describe('document review rules', () => {
  it('shows review actions only to people who may edit customers, never to the uploader', () => {
    expect(reviewState(viewer, pending)).toEqual({ kind: 'hidden' });
    expect(reviewState(null, pending)).toEqual({ kind: 'hidden' });
    expect(reviewState(agent, pending)).toEqual({ kind: 'own', message: OWN_UPLOAD_MESSAGE });
    expect(reviewState(reviewer, pending)).toEqual({ kind: 'allowed' });
    expect(reviewState({ ...viewer, isOwner: true }, pending)).toEqual({ kind: 'allowed' });
    expect(reviewState(reviewer, { ...pending, status: 'verified' })).toEqual({ kind: 'reviewed' });
    expect(reviewState(reviewer, { ...pending, status: 'rejected' })).toEqual({ kind: 'reviewed' });
  });

  it('needs a reason to reject, at most 500 characters', () => {
    expect(rejectReasonProblem('')).toBe('Give the reason for rejecting');
    expect(rejectReasonProblem('   ')).toBe('Give the reason for rejecting');
    expect(rejectReasonProblem('x'.repeat(501))).toBe('Reason must be at most 500 characters');
    expect(rejectReasonProblem('Photo is blurred')).toBeNull();
  });

  it('refuses a missing, empty, oversized or foreign file before sending it', () => {
    expect(fileProblem(null)).toBe('Choose a file to upload');
    expect(fileProblem(fileOf(0, 'image/png'))).toBe('The file is empty');
    expect(fileProblem(fileOf(KYC_MAX_FILE_BYTES + 1, 'image/jpeg'))).toBe(
      'The file is 10.0 MB; the limit is 10 MB. Upload a smaller scan or photo.',
    );
    expect(fileProblem(fileOf(12 * 1024 * 1024, 'application/pdf'))).toBe(
      'The file is 12.0 MB; the limit is 10 MB. Upload a smaller scan or photo.',
    );
    expect(fileProblem(fileOf(KYC_MAX_FILE_BYTES, 'image/jpeg'))).toBeNull();
    expect(fileProblem(fileOf(100, 'image/gif'))).toBe('Only JPEG, PNG or PDF files are accepted');
    // The server recognises the content; a file the browser cannot name goes to it.
    expect(fileProblem(fileOf(100, ''))).toBeNull();
  });
});

function renderCard(user: typeof agent, documents = [pending], handler?: Parameters<typeof stubApi>[1]) {
  const calls = stubApi(user, (call) => {
    const answer = handler?.(call);
    if (answer) return answer;
    if (call.url === `/api/customers/${CUSTOMER_ID}/documents` && call.method === 'GET') {
      return jsonResponse(documents);
    }
    return undefined;
  });
  renderWithProviders(<DocumentsCard customer={makeCustomer()} user={user} />);
  return calls;
}

/** The customer page reads the profile too, so an upload refreshes it along with the documents. */
function CustomerProfileQuery() {
  useCustomer(CUSTOMER_ID);
  return null;
}

describe('documents card', () => {
  it('shows a viewer the review but not the scan, and neither upload nor review', async () => {
    renderCard(viewer);
    await screen.findByTestId(`row-document-${pending.id}`);
    expect(screen.queryByTestId(`button-preview-${pending.id}`)).not.toBeInTheDocument();
    expect(screen.queryByTestId(`button-verify-${pending.id}`)).not.toBeInTheDocument();
    expect(screen.queryByTestId(`button-reject-${pending.id}`)).not.toBeInTheDocument();
    expect(screen.queryByTestId('form-upload-document')).not.toBeInTheDocument();
  });

  it('tells the uploader that another person must review, without the buttons', async () => {
    renderCard(agent);
    expect(await screen.findByTestId(`text-own-upload-${pending.id}`)).toHaveTextContent(OWN_UPLOAD_MESSAGE);
    expect(screen.queryByTestId(`button-verify-${pending.id}`)).not.toBeInTheDocument();
  });

  it('rejects only with a reason, and sends it', async () => {
    const calls = renderCard(reviewer, [pending], ({ method, url }) =>
      method === 'POST' && url.endsWith('/review')
        ? jsonResponse({
            document: { ...pending, status: 'rejected', rejectionReason: 'Photo is blurred' },
            kycStatus: 'rejected',
          })
        : undefined,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId(`button-reject-${pending.id}`));
    const dialog = await screen.findByTestId('dialog-reject-document');
    await user.click(within(dialog).getByTestId('button-confirm-reject'));
    expect(within(dialog).getByTestId('error-reject-reason')).toHaveTextContent(
      'Give the reason for rejecting',
    );
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.type(within(dialog).getByTestId('input-reject-reason'), '  Photo is blurred ');
    await user.click(within(dialog).getByTestId('button-confirm-reject'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')).toMatchObject({
        url: `/api/customers/${CUSTOMER_ID}/documents/${pending.id}/review`,
        body: { decision: 'reject', reason: 'Photo is blurred' },
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('dialog-reject-document')).not.toBeInTheDocument());
  });

  it('shows the server’s refusal with the document when a review is not allowed', async () => {
    renderCard(reviewer, [pending], ({ method }) =>
      method === 'POST' ? apiError(422, { code: 'SAME_PERSON', message: OWN_UPLOAD_MESSAGE }) : undefined,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId(`button-verify-${pending.id}`));
    expect(await screen.findByTestId(`alert-review-${pending.id}`)).toHaveTextContent(OWN_UPLOAD_MESSAGE);
  });

  it('refuses a file over 10 MB before uploading, and shows the server’s refusal of its content', async () => {
    const calls = renderCard(agent, [], ({ method }) =>
      method === 'POST'
        ? apiError(415, {
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message:
              'Only JPEG, PNG or PDF files are accepted; this file is none of them (whatever its name says)',
          })
        : undefined,
    );
    await screen.findByTestId('empty-documents');
    const input = screen.getByTestId('input-document-file');
    fireEvent.change(input, {
      target: { files: [fileOf(KYC_MAX_FILE_BYTES + 1024 * 1024, 'image/jpeg', 'big.jpg')] },
    });
    expect(screen.getByTestId('error-document-file')).toHaveTextContent('the limit is 10 MB');
    fireEvent.click(screen.getByTestId('button-upload-document'));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(input, { target: { files: [fileOf(2048, 'image/jpeg', 'photo.jpg')] } });
    expect(screen.queryByTestId('error-document-file')).not.toBeInTheDocument();
    fireEvent.change(screen.getByTestId('select-document-type'), { target: { value: 'selfie' } });
    fireEvent.click(screen.getByTestId('button-upload-document'));
    expect(await screen.findByTestId('alert-form-error')).toHaveTextContent('this file is none of them');
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url).toBe(`/api/customers/${CUSTOMER_ID}/documents`);
    expect(post?.body).toBeInstanceOf(FormData);
    expect((post?.body as FormData | undefined)?.get('type')).toBe('selfie');
  });

  it('locks the type and file while the page refreshes after an upload, and resets them only then', async () => {
    const bill = makeDocument({
      id: '9c1d2e3f-0000-4000-8000-000000000002',
      type: 'proof_of_address',
      fileName: 'bill.pdf',
      mimeType: 'application/pdf',
    });
    let documents: KycDocument[] = [];
    let profileReads = 0;
    let answerProfile = () => {};
    stubApi(agent, ({ method, url }) => {
      if (url === `/api/customers/${CUSTOMER_ID}/documents`) {
        if (method !== 'POST') return jsonResponse(documents);
        documents = [bill];
        return jsonResponse({ document: bill, kycStatus: 'pending' }, 201);
      }
      if (url !== `/api/customers/${CUSTOMER_ID}`) return undefined;
      profileReads += 1;
      if (profileReads === 1) return jsonResponse(makeCustomer());
      // The profile's refresh after the upload is slow: the new row shows before it is done.
      return new Promise<Response>((resolve) => {
        answerProfile = () => resolve(jsonResponse(makeCustomer()));
      });
    });
    renderWithProviders(
      <>
        <CustomerProfileQuery />
        <DocumentsCard customer={makeCustomer()} user={agent} />
      </>,
    );
    await screen.findByTestId('empty-documents');
    const form = screen.getByTestId('form-upload-document');
    const type = screen.getByTestId<HTMLSelectElement>('select-document-type');
    const input = screen.getByTestId('input-document-file');
    const button = screen.getByTestId('button-upload-document');
    fireEvent.change(type, { target: { value: 'proof_of_address' } });
    fireEvent.change(input, { target: { files: [fileOf(2048, 'application/pdf', 'bill.pdf')] } });
    fireEvent.click(button);

    await screen.findByTestId(`row-document-${bill.id}`);
    await waitFor(() => expect(profileReads).toBe(2));
    // Still uploading: a type or file chosen now would be wiped by the reset that follows.
    expect(form).toHaveAttribute('aria-busy', 'true');
    expect(type).toBeDisabled();
    expect(input).toBeDisabled();
    expect(button).toBeDisabled();

    answerProfile();
    await waitFor(() => expect(button).toBeEnabled());
    expect(form).toHaveAttribute('aria-busy', 'false');
    expect(type).toBeEnabled();
    expect(input).toBeEnabled();
    // Reset: the suggestion is followed again and no file is chosen.
    expect(type.value).toBe('id_front');
    expect(screen.getByText('JPEG, PNG or PDF, up to 10 MB.')).toBeInTheDocument();
  });
});
