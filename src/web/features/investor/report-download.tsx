import { FileSpreadsheet, FileText } from 'lucide-react';
import { useState } from 'react';
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
        <div className="grid gap-1.5">
          <Label htmlFor="report-from">From</Label>
          <Input
            id="report-from"
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            data-testid="input-report-from"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="report-to">To</Label>
          <Input
            id="report-to"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            data-testid="input-report-to"
          />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex">
        <Button
          asChild
          variant="default"
          aria-disabled={!valid}
          className={valid ? '' : 'pointer-events-none opacity-50'}
        >
          <a
            href={endpointUrl(investorEndpoints.reportPdf, { query })}
            download
            data-testid="link-report-pdf"
          >
            <FileText aria-hidden="true" /> PDF report
          </a>
        </Button>
        <Button
          asChild
          variant="outline"
          aria-disabled={!valid}
          className={valid ? '' : 'pointer-events-none opacity-50'}
        >
          <a
            href={endpointUrl(investorEndpoints.reportXlsx, { query })}
            download
            data-testid="link-report-xlsx"
          >
            <FileSpreadsheet aria-hidden="true" /> Spreadsheet
          </a>
        </Button>
      </div>
      {!valid && <p className="text-destructive text-xs">The period’s start must not be after its end.</p>}
    </div>
  );
}
