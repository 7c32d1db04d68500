import type {
  IMPORT_CONTRACT_KEYS,
  IMPORT_DATE_FORMATS,
  IMPORT_ROW_STATUSES,
  ImportRowIssue,
} from '@/contracts/payment-imports';
import type { ImportStatus } from '@/contracts/payments';
import type { BadgeProps } from '@/web/components/ui/badge';

/** How statement imports read on screen. */
export const IMPORT_STATUS_LABELS: Record<ImportStatus, string> = {
  previewed: 'Previewed',
  posting: 'Posting',
  posted: 'Posted',
  discarded: 'Discarded',
};

export const IMPORT_STATUS_VARIANTS: Record<ImportStatus, BadgeProps['variant']> = {
  previewed: 'warning',
  posting: 'secondary',
  posted: 'success',
  discarded: 'secondary',
};

export const ROW_STATUS_LABELS: Record<(typeof IMPORT_ROW_STATUSES)[number], string> = {
  valid: 'To post',
  posted: 'Posted',
  already_posted: 'Already posted',
  error: 'Refused',
};

export const ROW_STATUS_VARIANTS: Record<(typeof IMPORT_ROW_STATUSES)[number], BadgeProps['variant']> = {
  valid: 'secondary',
  posted: 'success',
  already_posted: 'secondary',
  error: 'destructive',
};

export const ISSUE_LABELS: Record<ImportRowIssue, string> = {
  unmapped: 'Columns not mapped',
  unknown_contract: 'Unknown contract',
  contract_not_active: 'Contract not active',
  bad_amount: 'Bad amount',
  bad_date: 'Bad date',
  missing_reference: 'No reference',
  duplicate_in_file: 'Reference twice in the file',
  duplicate_reference: 'Reference already used',
  bad_method: 'Unknown method',
  failed: 'Failed to post',
  already_posted: 'Already posted (skipped)',
};

export const CONTRACT_KEY_LABELS: Record<(typeof IMPORT_CONTRACT_KEYS)[number], string> = {
  contract_number: 'Contract number',
  device_serial: 'Device serial number',
  phone: 'Customer phone',
};

export const DATE_FORMAT_LABELS: Record<(typeof IMPORT_DATE_FORMATS)[number], string> = {
  iso: 'Year first (2025-03-31)',
  dmy: 'Day first (31/03/2025)',
};

/** The mapping's fields in the order the form shows them. */
export const MAPPING_FIELD_LABELS = {
  contract: 'Contract column',
  contractKey: 'The contract column holds',
  amount: 'Amount column',
  reference: 'Reference column',
  date: 'Date column',
  dateFormat: 'Dates are written',
  method: 'Method column',
} as const;

export const issueLabel = (issue: string): string => ISSUE_LABELS[issue as ImportRowIssue] ?? issue;
