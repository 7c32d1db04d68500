import { Check, Monitor, Moon, RotateCw, Sun } from 'lucide-react';
import { useId } from 'react';
import {
  LANDING_PAGES,
  NOTIFICATION_CATEGORIES,
  type NotificationCategory,
  type Preferences,
} from '@/contracts/profile';
import { AREAS } from '@/web/app/areas';
import { type Theme, useTheme } from '@/web/app/theme';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Label } from '@/web/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/web/components/ui/select';
import { Skeleton } from '@/web/components/ui/skeleton';
import { Switch } from '@/web/components/ui/switch';
import { errorMessage } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import { usePreferences, useSavePreferences } from './preferences';

const THEMES: Array<{ value: Theme; label: string; icon: typeof Sun }> = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'system', label: 'Same as this device', icon: Monitor },
];

const CATEGORIES = Object.entries(NOTIFICATION_CATEGORIES) as Array<[NotificationCategory, string]>;

/** The user's own preferences; each change applies and is saved at once. */
export function PreferencesCard() {
  const preferences = usePreferences();
  const { theme, setTheme } = useTheme();
  const { save, status } = useSavePreferences();
  const landingId = useId();
  const data = preferences.data;

  return (
    <Card data-testid="card-preferences">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid grid-cols-1 min-w-64 flex-1 gap-1.5">
          <CardTitle>Your preferences</CardTitle>
          <CardDescription>
            They follow you to every browser you sign in on. Changes are saved at once.
          </CardDescription>
        </div>
        <p
          role="status"
          aria-live="polite"
          className="flex items-center gap-1.5 text-muted-foreground text-xs"
        >
          {status === 'pending' ? (
            <>
              <Spinner className="size-3.5" /> Saving…
            </>
          ) : status === 'success' ? (
            <span data-testid="text-preferences-saved" className="flex items-center gap-1.5">
              <Check className="size-3.5" aria-hidden="true" /> Saved
            </span>
          ) : status === 'error' ? (
            'Not saved'
          ) : null}
        </p>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-8">
        {preferences.isLoading ? (
          <div role="status" className="grid grid-cols-1 gap-3">
            <span className="sr-only">Loading preferences…</span>
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-9 w-64" />
          </div>
        ) : preferences.error || !data ? (
          <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-sm">
            <p className="text-destructive">
              Preferences could not be loaded
              {preferences.error ? `: ${errorMessage(preferences.error)}` : '.'}
            </p>
            <Button variant="outline" size="sm" onClick={() => void preferences.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <>
            <fieldset className="grid grid-cols-1 gap-3" data-testid="group-theme">
              <legend className="mb-3 font-medium text-sm">Theme</legend>
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
                {THEMES.map(({ value, label, icon: Icon }) => (
                  <label
                    key={value}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-lg border p-3 text-sm transition-colors hover:bg-accent/50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                      theme === value && 'border-primary bg-primary/5',
                    )}
                  >
                    <input
                      type="radio"
                      name="theme"
                      value={value}
                      checked={theme === value}
                      onChange={() => setTheme(value)}
                      className="size-4 accent-primary"
                      data-testid={`radio-theme-${value}`}
                    />
                    <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
                    {label}
                  </label>
                ))}
              </div>
            </fieldset>

            <div className="grid grid-cols-1 max-w-sm gap-1.5">
              <Label htmlFor={landingId}>Page after signing in</Label>
              <Select
                value={data.landingPage}
                onValueChange={(value) => save({ landingPage: value as Preferences['landingPage'] })}
              >
                <SelectTrigger
                  id={landingId}
                  aria-describedby={`${landingId}-hint`}
                  data-testid="select-landing-page"
                >
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {LANDING_PAGES.map((path) => (
                    <SelectItem key={path} value={path} data-testid={`option-landing-${path}`}>
                      {AREAS[path].title}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <p id={`${landingId}-hint`} className="text-muted-foreground text-xs">
                Opening DeviceFin at its home address takes you here.
              </p>
            </div>

            <fieldset className="grid grid-cols-1 gap-1" data-testid="group-notification-settings">
              <legend className="mb-1 font-medium text-sm">Notifications</legend>
              <p className="mb-2 text-muted-foreground text-xs">
                Which kinds of notification the bell shows you. Switched-off kinds are not kept for you.
              </p>
              <ul className="divide-y rounded-lg border">
                {CATEGORIES.map(([category, label]) => {
                  const checked = data.notificationSettings[category] ?? true;
                  const switchId = `${landingId}-notify-${category}`;
                  return (
                    <li key={category} className="flex items-center justify-between gap-4 px-3 py-2.5">
                      <Label htmlFor={switchId} className="font-normal">
                        {label}
                      </Label>
                      <Switch
                        id={switchId}
                        checked={checked}
                        onCheckedChange={(next) =>
                          save({ notificationSettings: { ...data.notificationSettings, [category]: next } })
                        }
                        data-testid={`switch-notify-${category}`}
                      />
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          </>
        )}
      </CardContent>
    </Card>
  );
}
