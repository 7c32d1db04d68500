import { Check, EyeOff, Minus } from 'lucide-react';
import type { ReactNode } from 'react';
import { CONSENTS, type Customer } from '@/contracts/customers';
import { formatMoney } from '@/domain';
import { Badge } from '@/web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { formatDateTime, formatDay } from '@/web/lib/format';
import { formatPhone } from './customer-form-model';
import { ageFrom, CONSENT_LABELS, EMPLOYMENT_LABELS, GENDER_LABELS, labelOf } from './format';

function Item({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="grid grid-cols-1 min-w-0 gap-0.5">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="break-words text-sm" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const none = <span className="text-muted-foreground">Not given</span>;

/** Who the customer is and how to reach them. */
export function ProfileCard({ customer }: { customer: Customer }) {
  const age = customer.dateOfBirth ? ageFrom(customer.dateOfBirth) : null;
  return (
    <Card data-testid="card-customer-profile">
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        {customer.masked && (
          <CardDescription className="flex items-center gap-1.5" data-testid="text-masked">
            <EyeOff className="size-3.5" aria-hidden="true" />
            Phone, email and national ID are partly hidden for your role.
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Item label="Phone" testId="text-customer-phone">
            {customer.masked ? customer.phone : formatPhone(customer.phone)}
          </Item>
          <Item label="Email" testId="text-customer-email">
            {customer.email ?? none}
          </Item>
          <Item label="National ID" testId="text-customer-national-id">
            {customer.nationalId ? <span className="font-mono">{customer.nationalId}</span> : none}
          </Item>
          <Item label="Date of birth" testId="text-customer-dob">
            {customer.dateOfBirth
              ? `${formatDay(customer.dateOfBirth)}${age !== null ? ` (age ${age})` : ''}`
              : none}
          </Item>
          <Item label="Gender" testId="text-customer-gender">
            {customer.gender ? labelOf(GENDER_LABELS, customer.gender) : none}
          </Item>
          <Item label="Region" testId="text-customer-region">
            {customer.region ?? none}
          </Item>
          <Item label="Tags" testId="text-customer-tags">
            {customer.tags.length ? (
              <span className="flex flex-wrap gap-1">
                {customer.tags.map((tag) => (
                  <Badge key={tag} variant="secondary">
                    {tag}
                  </Badge>
                ))}
              </span>
            ) : (
              none
            )}
          </Item>
          <Item label="Address" testId="text-customer-address">
            {customer.address ?? none}
          </Item>
          <Item label="Occupation" testId="text-customer-occupation">
            {customer.occupation ?? none}
          </Item>
          <Item label="Employment" testId="text-customer-employment">
            {customer.employment ? labelOf(EMPLOYMENT_LABELS, customer.employment) : none}
          </Item>
          <Item label="Monthly income" testId="text-customer-income">
            {customer.monthlyIncome === null ? none : formatMoney(customer.monthlyIncome, customer.currency)}
          </Item>
          <Item label="Assigned agent" testId="text-customer-agent">
            {customer.assignedAgent?.name ?? <span className="text-muted-foreground">Nobody yet</span>}
          </Item>
          <Item label="Created" testId="text-customer-created">
            {formatDateTime(customer.createdAt)}
            {customer.createdBy && (
              <span className="text-muted-foreground"> by {customer.createdBy.name}</span>
            )}
          </Item>
        </dl>
        <h3 className="mt-6 mb-2 font-medium text-sm">Consents</h3>
        <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" data-testid="list-consents">
          {CONSENTS.map((name) => {
            const at = customer.consents[name];
            return (
              <li
                key={name}
                className="flex items-center gap-2 text-sm"
                data-testid={`text-consent-${name}`}
                data-given={at ? 'true' : 'false'}
              >
                {at ? (
                  <Check className="size-4 shrink-0 text-success" aria-hidden="true" />
                ) : (
                  <Minus className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                )}
                <span>
                  {CONSENT_LABELS[name]}:{' '}
                  <span className="text-muted-foreground">
                    {at ? `given ${formatDateTime(at)}` : 'not given'}
                  </span>
                </span>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
