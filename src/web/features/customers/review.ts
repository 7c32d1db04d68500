import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  customerEndpoints,
  type DocumentReviewBody,
  KYC_DOCUMENT_LABELS,
  type KycDocument,
} from '@/contracts/customers';
import { toast } from '@/web/hooks/use-toast';
import { api, apiUploadTo } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { KYC_STATUS_LABELS } from './format';

/** After an upload or a review: the profile (KYC status, scorecard), documents, timeline and lists. */
function useRefreshCustomer() {
  const queryClient = useQueryClient();
  return () => invalidate(queryClient, 'customerSaved');
}

export function useUploadDocument(customerId: string) {
  const refresh = useRefreshCustomer();
  return useMutation({
    mutationFn: ({ type, file }: { type: string; file: File }) => {
      const form = new FormData();
      form.append('type', type);
      form.append('file', file, file.name);
      return apiUploadTo(customerEndpoints.uploadDocument, { params: { id: customerId } }, form);
    },
    onSuccess: async ({ document, kycStatus }) => {
      toast({
        title: `${KYC_DOCUMENT_LABELS[document.type]} uploaded`,
        description: `Another person must now review it. KYC status: ${KYC_STATUS_LABELS[kycStatus]}.`,
      });
      await refresh();
    },
  });
}

export function useReviewDocument(customerId: string) {
  const refresh = useRefreshCustomer();
  return useMutation({
    mutationFn: ({ document, body }: { document: KycDocument; body: DocumentReviewBody }) =>
      api(customerEndpoints.reviewDocument, {
        params: { id: customerId, documentId: document.id },
        body,
      }),
    onSuccess: async ({ document, kycStatus }) => {
      toast({
        title: `${KYC_DOCUMENT_LABELS[document.type]} ${document.status === 'verified' ? 'verified' : 'rejected'}`,
        description: `KYC status: ${KYC_STATUS_LABELS[kycStatus]}.`,
      });
      await refresh();
    },
  });
}
