import { FileSpreadsheet, FileText } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { investorEndpoints } from '@/contracts/investor';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { endpointUrl } from '@/web/lib/api';

/** The first day of the year of a date. */
const yearStart = (date: string) => `${date.slice(0, 4)}-01-01`;

/** The investor report for a period, as PDF or XLSX (plain links: the browser downloads them). */
export function ReportDownload({ asOf }: { asOf: string | null }) {
  const end = asOf ?? new Date().toISOString().slice(0, 10);
  const [from, setFrom] = useState(() => yearStart(end));
  const [to, setTo] = useState(end);
  const valid = !!from && !!to && from <= to;
  const query = { from, to };
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="grid grid-cols-2 gap-3">
        <DateInput id="from" label="From" value={from} onChange={setFrom} />
        <DateInput id="to" label="To" value={to} onChange={setTo} />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex">
        <ReportLink href={endpointUrl(investorEndpoints.reportPdf, { query })} kind="pdf" valid={valid}>
          <FileText aria-hidden="true" /> PDF report
        </ReportLink>
        <ReportLink href={endpointUrl(investorEndpoints.reportXlsx, { query })} kind="xlsx" valid={valid}>
          <FileSpreadsheet aria-hidden="true" /> Spreadsheet
        </ReportLink>
      </div>
      {!valid && <p className="text-destructive text-xs">The period’s start must not be after its end.</p>}
    </div>
  );
}

function DateInput({
  id,
  label,
  value,
  onChange,
}: {
  id: 'from' | 'to';
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={`report-${id}`}>{label}</Label>
      <Input
        id={`report-${id}`}
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`input-report-${id}`}
      />
    </div>
  );
}

/** A download link styled as a button; the PDF is the primary one. Disabled while the period is not valid. */
function ReportLink({
  href,
  kind,
  valid,
  children,
}: {
  href: string;
  kind: 'pdf' | 'xlsx';
  valid: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      asChild
      variant={kind === 'pdf' ? 'default' : 'outline'}
      aria-disabled={!valid}
      className={valid ? '' : 'pointer-events-none opacity-50'}
    >
      <a href={href} download data-testid={`link-report-${kind}`}>
        {children}
      </a>
    </Button>
  );
}
