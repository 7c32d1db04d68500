import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';

interface FormSectionProps {
  title: string;
  description: string;
  /** Classes for the card's content, e.g. the grid its fields sit in. */
  className?: string;
  headerClassName?: string;
  children: ReactNode;
}

/** A titled card grouping part of a long form (customer, service plan), so each form reads in sections. */
export function FormSection({ title, description, className, headerClassName, children }: FormSectionProps) {
  return (
    <Card>
      <CardHeader className={headerClassName}>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={className}>{children}</CardContent>
    </Card>
  );
}
