import type { QueueRow } from '@/contracts/collections';
import { explainScore } from '@/domain';

/** The score and its parts in words: why the row ranks where it does. */
export function ScoreCell({ row }: { row: QueueRow }) {
  const reasons = explainScore(
    {
      dpd: row.dpd,
      amountOverdue: row.amountOverdue,
      regularPayment: row.regularPayment,
      riskGrade: row.riskGrade,
      brokenPromises: row.brokenPromises,
      daysSinceContact: row.daysSinceContact,
    },
    { total: row.score, parts: row.parts },
  );
  return (
    <details className="group text-sm" data-testid={`score-${row.contractId}`}>
      <summary className="cursor-pointer rounded font-semibold tabular-nums focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        {row.score}
        <span className="sr-only"> points: show why</span>
      </summary>
      <ul className="mt-1 grid gap-0.5 text-muted-foreground text-xs" aria-label="Score parts">
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
        <li>as of {row.scoredOn}</li>
      </ul>
    </details>
  );
}
