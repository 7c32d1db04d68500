import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { useTabParam } from '@/web/hooks/use-tab-param';

export interface RoutedTab {
  value: string;
  label: string;
  icon?: LucideIcon;
  /** `tab-<value>` unless given. */
  testId?: string;
  content: ReactNode;
  /** The panel's layout, when it holds more than one card. */
  className?: string;
}

/**
 * A page's tabs with the open one in the address (`?tab=`, see useTabParam); the first is the
 * default. On a narrow screen the list scrolls sideways from its first tab (centred, its start
 * would be cut off out of reach).
 */
export function RoutedTabs({
  label,
  tabs,
}: {
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly [RoutedTab, ...RoutedTab[]];
}) {
  const [first, ...rest] = tabs;
  const [tab, open] = useTabParam([first.value, ...rest.map((each) => each.value)]);
  return (
    <Tabs value={tab} onValueChange={open}>
      <TabsList aria-label={label} className="max-w-full justify-start overflow-x-auto">
        {tabs.map((each) => (
          <TabsTrigger key={each.value} value={each.value} data-testid={each.testId ?? `tab-${each.value}`}>
            <TabLabel {...each} />
          </TabsTrigger>
        ))}
      </TabsList>
      {tabs.map((each) => (
        <TabsContent key={each.value} value={each.value} className={each.className}>
          {each.content}
        </TabsContent>
      ))}
    </Tabs>
  );
}

function TabLabel({ label, icon: Icon }: RoutedTab) {
  if (!Icon) return label;
  return (
    <>
      <Icon aria-hidden="true" className="size-4" /> {label}
    </>
  );
}
