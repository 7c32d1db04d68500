import { useParams } from 'wouter';
import { ContractDetailView } from '@/web/features/contracts/contract-detail-view';
import { useAuth } from '@/web/hooks/use-auth';

/** /contracts/:id */
export default function ContractDetailPage() {
  const { id } = useParams<{ id: string }>();
  const { user } = useAuth();
  if (!user || !id) return null;
  return <ContractDetailView key={id} id={id} user={user} />;
}
