import {
  customerEndpoints,
  KYC_MAX_FILE_BYTES,
  KYC_MIME_TYPES,
  type KycDocument,
} from '@/contracts/customers';
import { can, type RoleHolder } from '@/contracts/roles';
import { endpointUrl } from '@/web/lib/api';
import { formatFileSize } from './format';

/**
 * The KYC document rules the screen follows (the server enforces the same ones; hiding a button is
 * a courtesy, never security): who may upload and review, what may be uploaded, and what a
 * rejection needs.
 */

export const ACCEPTED_FILES = KYC_MIME_TYPES.join(',');
export const REJECT_REASON_MAX = 500;
export const OWN_UPLOAD_MESSAGE = 'You uploaded this document; another person must review it';

export type ReviewState =
  /** The person may not review documents at all: no buttons. */
  | { kind: 'hidden' }
  /** Already verified or rejected: nothing to do. */
  | { kind: 'reviewed' }
  /** The uploader: another person must review it (maker-checker). */
  | { kind: 'own'; message: string }
  | { kind: 'allowed' };

export function reviewState(
  user: (RoleHolder & { id: string }) | null | undefined,
  document: Pick<KycDocument, 'status' | 'uploadedBy'>,
): ReviewState {
  if (!can(user, 'customers.write') || !user) return { kind: 'hidden' };
  if (document.status !== 'pending') return { kind: 'reviewed' };
  if (document.uploadedBy?.id === user.id) return { kind: 'own', message: OWN_UPLOAD_MESSAGE };
  return { kind: 'allowed' };
}

export function canUpload(user: RoleHolder | null | undefined): boolean {
  return can(user, 'customers.write');
}

/** Why a chosen file cannot be uploaded, before sending it; null when it may go. */
export function fileProblem(file: Pick<File, 'size' | 'type' | 'name'> | null | undefined): string | null {
  if (!file) return 'Choose a file to upload';
  if (file.size === 0) return 'The file is empty';
  if (file.size > KYC_MAX_FILE_BYTES) {
    return `The file is ${formatFileSize(file.size)}; the limit is 10 MB. Upload a smaller scan or photo.`;
  }
  // The browser guesses the type from the name; the server looks at the content. Only a known,
  // different type is refused here (a file without a recognised name goes to the server).
  if (file.type && !(KYC_MIME_TYPES as readonly string[]).includes(file.type)) {
    return 'Only JPEG, PNG or PDF files are accepted';
  }
  return null;
}

/** A rejection needs a reason (trimmed, at most 500 characters); null when it is fine. */
export function rejectReasonProblem(reason: string): string | null {
  const trimmed = reason.trim();
  if (!trimmed) return 'Give the reason for rejecting';
  if (trimmed.length > REJECT_REASON_MAX) return `Reason must be at most ${REJECT_REASON_MAX} characters`;
  return null;
}

export const COMMON_REJECT_REASONS = [
  'Photo is blurred or unreadable',
  'Document has expired',
  'Name does not match the customer',
  'Wrong document type',
] as const;

export function documentFileUrl(document: Pick<KycDocument, 'id' | 'customerId'>): string {
  return endpointUrl(customerEndpoints.documentFile, {
    params: { id: document.customerId, documentId: document.id },
  });
}

export const isImage = (document: Pick<KycDocument, 'mimeType'>) => document.mimeType.startsWith('image/');
