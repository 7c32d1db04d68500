import { Laptop, type LucideIcon, Package, Smartphone, SunMedium, Tv } from 'lucide-react';
import type { DemoDeviceCategory } from '@/contracts/demo';
import { cn } from '@/web/lib/utils';
import { demoImageUrl } from './use-demo';

const ICONS: Record<DemoDeviceCategory, LucideIcon> = {
  phone: Smartphone,
  solar: SunMedium,
  tv: Tv,
  laptop: Laptop,
  other: Package,
};

/** A device's uploaded picture, or its category's icon when it has none. */
export function DevicePicture({
  imageId,
  category,
  className,
}: {
  imageId: string | null;
  category: DemoDeviceCategory;
  className?: string;
}) {
  if (imageId) {
    return (
      <img
        src={demoImageUrl(imageId)}
        alt=""
        loading="lazy"
        className={cn('aspect-square rounded-lg bg-muted object-cover', className)}
      />
    );
  }
  const Icon = ICONS[category];
  return (
    <span
      className={cn(
        'flex aspect-square items-center justify-center rounded-lg bg-primary/10 text-primary',
        className,
      )}
      aria-hidden="true"
    >
      <Icon className="size-1/2" />
    </span>
  );
}
