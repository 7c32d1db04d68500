import {
  type Customer,
  type CustomerListItem,
  type KycDocumentType,
  REQUIRED_KYC_DOCUMENTS,
  type Risk,
} from '../../../contracts/customers';
import type { customers } from '../../../db/schema';
import { maskEmail, maskPhone, maskTail } from '../../pii';

export { seesPii } from '../../pii';

export type CustomerRow = typeof customers.$inferSelect;

export interface PersonNames {
  id: string | null;
  firstName: string | null;
  lastName: string | null;
}

export function personRef(person: PersonNames | null | undefined): { id: string; name: string } | null {
  if (!person?.id) return null;
  return { id: person.id, name: `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim() };
}

export function fullName(row: Pick<CustomerRow, 'firstName' | 'lastName' | 'otherNames'>): string {
  return [row.firstName, row.otherNames, row.lastName].filter(Boolean).join(' ');
}

export interface CustomerJoins {
  agent: PersonNames | null;
  createdBy: PersonNames | null;
  reviewer: PersonNames | null;
  missingDocuments: KycDocumentType[];
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function toCustomer(
  row: CustomerRow,
  joins: CustomerJoins,
  currency: string,
  showPii: boolean,
): Customer {
  return {
    id: row.id,
    accountNumber: row.accountNumber,
    firstName: row.firstName,
    lastName: row.lastName,
    otherNames: row.otherNames,
    fullName: fullName(row),
    phone: showPii ? row.phone : maskPhone(row.phone),
    email: showPii ? row.email : maskEmail(row.email),
    nationalId: showPii ? row.nationalId : maskTail(row.nationalId),
    dateOfBirth: row.dateOfBirth,
    gender: row.gender,
    address: row.address,
    region: row.region,
    occupation: row.occupation,
    employment: row.employment,
    monthlyIncome: row.monthlyIncome,
    currency,
    assignedAgent: personRef(joins.agent),
    language: row.language,
    tags: row.tags,
    consents: {
      sms: iso(row.consentSmsAt),
      whatsapp: iso(row.consentWhatsappAt),
      email: iso(row.consentEmailAt),
      marketing: iso(row.consentMarketingAt),
      dataProcessing: iso(row.consentDataProcessingAt),
    },
    kyc: {
      status: row.kycStatus,
      rejectionReason: row.kycRejectionReason,
      reviewedBy: personRef(joins.reviewer),
      reviewedAt: iso(row.kycReviewedAt),
      requiredDocuments: [...REQUIRED_KYC_DOCUMENTS],
      missingDocuments: joins.missingDocuments,
    },
    risk: (row.riskDetails as Risk | null) ?? null,
    masked: !showPii,
    createdBy: personRef(joins.createdBy),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

export type ListRow = Pick<
  CustomerRow,
  | 'id'
  | 'accountNumber'
  | 'firstName'
  | 'lastName'
  | 'otherNames'
  | 'phone'
  | 'email'
  | 'nationalId'
  | 'region'
  | 'kycStatus'
  | 'riskScore'
  | 'riskGrade'
  | 'createdAt'
> & { agentId: string | null; agentFirstName: string | null; agentLastName: string | null };

/** Lists always mask the national ID; viewers also get phone and email masked. */
export function toListItem(row: ListRow, showPii: boolean): CustomerListItem {
  return {
    id: row.id,
    accountNumber: row.accountNumber,
    firstName: row.firstName,
    lastName: row.lastName,
    fullName: fullName(row),
    phone: showPii ? row.phone : maskPhone(row.phone),
    email: showPii ? row.email : maskEmail(row.email),
    nationalId: maskTail(row.nationalId),
    region: row.region,
    kycStatus: row.kycStatus,
    riskScore: row.riskScore,
    riskGrade: row.riskGrade,
    assignedAgent: personRef({ id: row.agentId, firstName: row.agentFirstName, lastName: row.agentLastName }),
    createdAt: row.createdAt.toISOString(),
  };
}
