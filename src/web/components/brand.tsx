import { cn } from '@/web/lib/utils';

export const PRODUCT_NAME = 'DeviceFin';

export function BrandMark({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 32 32"
      className={cn('size-7 shrink-0', className)}
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="7" className="fill-primary" />
      <rect
        x="10"
        y="6"
        width="12"
        height="20"
        rx="2.5"
        fill="none"
        className="stroke-primary-foreground"
        strokeWidth="2.2"
      />
      <circle cx="16" cy="22" r="1.4" className="fill-primary-foreground" />
    </svg>
  );
}

export function Brand({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <BrandMark />
      <span className={cn(compact && 'sr-only sm:not-sr-only')}>{PRODUCT_NAME}</span>
    </span>
  );
}
