import type { ReactNode } from 'react';
import { PublicLayout } from '@/web/components/public-layout';
import { Card, CardContent, CardHeader } from '@/web/components/ui/card';

interface AuthCardProps {
  title: string;
  description: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** A centred card with the page's h1, used by the administrator sign-in and registration. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <PublicLayout mainClassName="flex items-start justify-center sm:items-center">
      <Card className="w-full max-w-md shadow-md">
        <CardHeader>
          <h1 className="font-semibold text-xl tracking-tight" data-testid="text-page-title">
            {title}
          </h1>
          <div className="text-muted-foreground text-sm">{description}</div>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-5">
          {children}
          {footer && (
            <div className="grid grid-cols-1 gap-2 border-t pt-4 text-muted-foreground text-sm">{footer}</div>
          )}
        </CardContent>
      </Card>
    </PublicLayout>
  );
}
