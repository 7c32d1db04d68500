import {
  Bell,
  Bot,
  Building2,
  Calculator,
  ChartColumn,
  FileText,
  Keyboard,
  KeyRound,
  LifeBuoy,
  type LucideIcon,
  MonitorSmartphone,
  ScrollText,
  Search,
  ShieldCheck,
  SlidersHorizontal,
  Smartphone,
  Sparkles,
  UserRoundCog,
  Users,
} from 'lucide-react';

/** The lucide icon names the feature list (src/server/modules/help/content.ts) may use. */
export const FEATURE_ICONS: Record<string, LucideIcon> = {
  Bell,
  Bot,
  Building2,
  Calculator,
  FileText,
  ChartColumn,
  Keyboard,
  KeyRound,
  LifeBuoy,
  MonitorSmartphone,
  ScrollText,
  Search,
  ShieldCheck,
  SlidersHorizontal,
  Smartphone,
  Sparkles,
  UserRoundCog,
  Users,
};

export function featureIcon(name: string): LucideIcon {
  return FEATURE_ICONS[name] ?? Sparkles;
}
