import { useParams } from 'wouter';
import { ReceiptView } from '@/web/features/payments/receipt-view';

/** /payment-processing/receipts/:id */
export default function PaymentReceiptPage() {
  const { id } = useParams<{ id: string }>();
  if (!id) return null;
  return <ReceiptView key={id} id={id} />;
}
