import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';

const CAN = [
  'Balance of each of the customer’s contracts',
  'Next payment: date and amount, and what is overdue',
  'How to pay: the paybill and the account (the contract number)',
  'The amount to pay everything off on a date (“if I pay everything on 15 Dec”)',
  'The latest unlock code, re-sent after the customer confirms the last 4 digits of their national ID or their account number',
  'The last payments with their receipts',
  'A person: a task for the customer’s agent, on their dashboard',
  'STOP, START: the consent to the channel',
];

/**
 * What the customer-service assistant answers, shown beside the conversations until one is open:
 * only from the customer's own records, every figure from the database and the finance engine.
 */
export function AssistantScope() {
  return (
    <Card data-testid="card-assistant-scope">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">What the assistant answers</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <ul className="list-disc space-y-1 pl-5">
          {CAN.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p className="text-muted-foreground">
          It reads only the records of the customer whose phone wrote, never another’s, whatever they ask. It
          says what it can do when it does not understand, and no one else answers while a person holds the
          conversation. Choose a conversation to read it.
        </p>
      </CardContent>
    </Card>
  );
}
