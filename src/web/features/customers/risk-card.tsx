import { Gauge } from 'lucide-react';
import type { Customer } from '@/contracts/customers';
import { DEFAULT_SCORECARD } from '@/domain';
import { Badge } from '@/web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { formatDateTime } from '@/web/lib/format';
import { cn } from '@/web/lib/utils';
import { DECISION_LABELS, DECISION_VARIANTS, FACTOR_LABELS, factorValue, GRADE_VARIANTS } from './format';

const CUT_OFFS = DEFAULT_SCORECARD.grades
  .filter((grade) => Number.isFinite(grade.minPoints))
  .map((grade) => `${grade.grade} from ${grade.minPoints}`)
  .join(', ');

/** The application scorecard: points per factor with the reason, the total, grade and decision. */
export function RiskCard({ customer }: { customer: Customer }) {
  const risk = customer.risk;
  return (
    <Card data-testid="card-risk">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Gauge className="size-4 text-muted-foreground" aria-hidden="true" />
          Risk scorecard
        </CardTitle>
        <CardDescription>
          Every point comes from a published rule; nothing is guessed. Grades: {CUT_OFFS}, otherwise E.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!risk ? (
          <p className="text-muted-foreground text-sm" data-testid="text-risk-none">
            Not scored yet.
          </p>
        ) : (
          <div className="grid grid-cols-1 gap-4">
            <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
              <div>
                <div className="text-muted-foreground text-xs">Score</div>
                <div className="font-semibold text-2xl tabular-nums" data-testid="text-risk-score">
                  {risk.score}
                  <span className="font-normal text-muted-foreground text-sm"> / {risk.maxScore}</span>
                </div>
              </div>
              <div>
                <div className="text-muted-foreground text-xs">Grade</div>
                <Badge
                  variant={GRADE_VARIANTS[risk.grade] ?? 'outline'}
                  className="mt-1 px-2.5 text-sm"
                  data-testid="text-risk-grade"
                >
                  {risk.grade}
                </Badge>
              </div>
              <div>
                <div className="text-muted-foreground text-xs">Decision</div>
                <Badge
                  variant={DECISION_VARIANTS[risk.decision]}
                  className="mt-1 px-2.5 text-sm"
                  data-testid="text-risk-decision"
                >
                  {DECISION_LABELS[risk.decision]}
                </Badge>
              </div>
            </div>
            {risk.overrides.length > 0 && (
              <p className="text-destructive text-sm" data-testid="text-risk-overrides">
                Declined whatever the score: {risk.overrides.join('; ')}.
              </p>
            )}
            <table className="w-full text-sm" data-testid="table-risk-factors">
              <caption className="sr-only">Points per factor</caption>
              <thead>
                <tr className="border-b text-left text-muted-foreground text-xs">
                  <th scope="col" className="pb-2 font-medium">
                    Factor
                  </th>
                  <th scope="col" className="pb-2 text-right font-medium">
                    Points
                  </th>
                </tr>
              </thead>
              <tbody>
                {risk.factors.map((factor) => {
                  const share = factor.maxPoints > 0 ? Math.max(0, factor.points) / factor.maxPoints : 0;
                  return (
                    <tr
                      key={factor.factor}
                      className="border-b last:border-0"
                      data-testid={`row-factor-${factor.factor}`}
                    >
                      <td className="py-2 pr-3 align-top">
                        <div className="font-medium">{FACTOR_LABELS[factor.factor] ?? factor.factor}</div>
                        <div className="text-muted-foreground text-xs">
                          {factorValue(factor, customer.currency)} — {factor.reason}
                        </div>
                        <div
                          className="mt-1.5 h-1.5 w-full overflow-hidden rounded-full bg-muted"
                          aria-hidden="true"
                        >
                          <div
                            className={cn(
                              'h-full rounded-full',
                              factor.points < 0 ? 'bg-destructive' : 'bg-primary',
                            )}
                            style={{ width: `${Math.round((factor.points < 0 ? 1 : share) * 100)}%` }}
                          />
                        </div>
                      </td>
                      <td className="whitespace-nowrap py-2 text-right align-top tabular-nums">
                        <span className={cn('font-medium', factor.points < 0 && 'text-destructive')}>
                          {factor.points}
                        </span>
                        <span className="text-muted-foreground"> / {factor.maxPoints}</span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr className="border-t font-medium">
                  <th scope="row" className="pt-2 text-left">
                    Total
                  </th>
                  <td className="whitespace-nowrap pt-2 text-right tabular-nums">
                    {risk.score} / {risk.maxScore}
                  </td>
                </tr>
              </tfoot>
            </table>
            <p className="text-muted-foreground text-xs">Scored {formatDateTime(risk.scoredAt)}.</p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
