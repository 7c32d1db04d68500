import type { InvestorSummary } from '@/contracts/investor';
import { Card, CardContent } from '@/web/components/ui/card';
import { money } from '@/web/lib/money';

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** The headline figures: one card each, two columns on a phone. */
export function InvestorKpiCards({ summary }: { summary: InvestorSummary }) {
  const m = (minor: number) => money(minor, summary.currency);
  const cards: { id: string; label: string; value: string; detail?: string }[] = [
    {
      id: 'disbursed',
      label: 'Disbursed',
      value: m(summary.disbursed),
      detail: `${summary.contracts} contracts`,
    },
    {
      id: 'outstanding',
      label: 'Outstanding',
      value: m(summary.outstanding),
      detail: `${summary.liveContracts} live contracts`,
    },
    { id: 'collected', label: 'Collected', value: m(summary.collected) },
    {
      id: 'collection-rate',
      label: 'Collection rate',
      value: percent(summary.collectionRate),
      detail: 'of amounts due',
    },
    { id: 'par30', label: 'PAR30', value: percent(summary.par30), detail: m(summary.par30Amount) },
    { id: 'par90', label: 'PAR90', value: percent(summary.par90), detail: m(summary.par90Amount) },
    { id: 'yield', label: 'Yield', value: percent(summary.yield), detail: 'interest and fees / disbursed' },
    {
      id: 'defaults',
      label: 'Defaults',
      value: String(summary.defaults.count + summary.defaults.writtenOffCount),
      detail: `${summary.defaults.count} in default (${m(summary.defaults.principal)}), ${summary.defaults.writtenOffCount} written off`,
    },
    {
      id: 'recoveries',
      label: 'Recoveries',
      value: String(summary.recoveries.repossessedCount),
      detail: `units repossessed (${m(summary.recoveries.repossessedPrincipal)} unpaid)`,
    },
  ];
  return (
    <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5" aria-label="Portfolio figures">
      {cards.map((card) => (
        <li key={card.id}>
          <Card className="h-full" data-testid={`card-investor-${card.id}`}>
            <CardContent className="flex flex-col gap-1 p-3 sm:p-4">
              <span className="text-muted-foreground text-xs">{card.label}</span>
              <span
                className="font-semibold text-base tabular-nums sm:text-lg"
                data-testid={`value-investor-${card.id}`}
              >
                {card.value}
              </span>
              {card.detail && <span className="text-muted-foreground text-xs">{card.detail}</span>}
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
