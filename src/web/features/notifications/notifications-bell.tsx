import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, BellOff, CheckCheck, RotateCw, Trash2, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import { type Notification, notificationEndpoints } from '@/contracts/notifications';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/web/components/ui/popover';
import { ScrollArea } from '@/web/components/ui/scroll-area';
import { Skeleton } from '@/web/components/ui/skeleton';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { cn } from '@/web/lib/utils';
import {
  bellLabel,
  formatNotificationTime,
  LIST_HEIGHT_PX,
  notificationBadgeVariant,
  UNREAD_POLL_MS,
  unreadBadgeText,
} from './notification-rules';

export type BellPlacement = 'top-bar' | 'bottom-bar';

const mobileItemClass =
  'relative flex min-w-0 flex-1 flex-col items-center justify-center gap-1 rounded-md px-1 py-1.5 text-[11px] font-medium text-muted-foreground transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none data-[state=open]:text-primary';

/**
 * Seed "Notifications dropdown": the bell with its unread badge (polled every 30 s), and a panel
 * that loads the list only while open, marks read, deletes, clears, and follows a notification's link.
 */
export function NotificationsBell({ placement }: { placement: BellPlacement }) {
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const titleId = useId();

  const unread = useQuery({
    queryKey: queryKeys.notifications.unreadCount(),
    queryFn: () => apiOrNull(notificationEndpoints.unreadCount),
    refetchInterval: UNREAD_POLL_MS,
  });
  const list = useQuery({
    queryKey: queryKeys.notifications.all(),
    queryFn: () => apiOrNull(notificationEndpoints.list),
    enabled: open,
    // Loaded afresh each time the panel opens.
    staleTime: 0,
  });

  const refresh = () => invalidate(queryClient, 'notificationsRead');
  const failed = (title: string) => (error: Error) =>
    toast({ variant: 'destructive', title, description: errorMessage(error) });

  const markRead = useMutation({
    mutationFn: (id: string) => api(notificationEndpoints.markRead, { params: { id } }),
    onError: failed('Notification not updated'),
    onSettled: refresh,
  });
  // On the server: every unread one, not only the newest the panel lists.
  const markAllRead = useMutation({
    mutationFn: () => api(notificationEndpoints.readAll),
    onError: failed('Notifications not updated'),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(notificationEndpoints.remove, { params: { id } }),
    onError: failed('Notification not deleted'),
    onSettled: refresh,
  });
  const clearAll = useMutation({
    mutationFn: () => api(notificationEndpoints.clearAll),
    onSuccess: () =>
      toast({
        title: 'Notifications Cleared',
        description: 'All notifications have been cleared successfully.',
      }),
    onError: failed('Notifications not cleared'),
    onSettled: refresh,
  });

  const count = unread.data?.count ?? 0;
  const badge = unreadBadgeText(count);
  const notifications = list.data ?? [];
  const busy = markAllRead.isPending || clearAll.isPending;

  const activate = (notification: Notification) => {
    if (!notification.read) markRead.mutate(notification.id);
    if (notification.link) {
      if (notification.link.startsWith('/')) navigate(notification.link);
      else window.location.assign(notification.link);
    }
    setOpen(false);
  };

  const badgeElement = badge && (
    <span
      className={cn(
        'pointer-events-none absolute flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 font-semibold text-[10px] text-destructive-foreground leading-none',
        placement === 'top-bar' ? 'top-1 right-1' : 'top-0.5 left-1/2 ml-1',
      )}
      aria-hidden="true"
      data-testid={placement === 'top-bar' ? 'badge-unread-count' : 'badge-unread-count-mobile'}
    >
      {badge}
    </span>
  );

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        {placement === 'top-bar' ? (
          <Button
            variant="ghost"
            size="icon"
            className="relative data-[state=open]:bg-accent"
            aria-label={bellLabel(count)}
            data-testid="button-notifications"
          >
            <Bell className="size-5" aria-hidden="true" />
            {badgeElement}
          </Button>
        ) : (
          <button
            type="button"
            className={mobileItemClass}
            aria-label={bellLabel(count)}
            data-testid="button-notifications-mobile"
          >
            <Bell className="size-5" aria-hidden="true" />
            {badgeElement}
            <span className="truncate" aria-hidden="true">
              Alerts
            </span>
          </button>
        )}
      </PopoverTrigger>
      <PopoverContent
        align="end"
        side={placement === 'top-bar' ? 'bottom' : 'top'}
        className="w-[calc(100vw-1rem)] p-0 sm:w-96"
        aria-labelledby={titleId}
        data-testid="panel-notifications"
      >
        <div className="flex items-center justify-between gap-2 border-b px-3 py-2.5">
          <h2 id={titleId} className="font-semibold text-sm">
            Notifications
          </h2>
          <div className="flex items-center gap-1">
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-2"
              disabled={count === 0 || busy}
              onClick={() => markAllRead.mutate()}
              data-testid="button-mark-all-read"
            >
              {markAllRead.isPending ? <Spinner className="size-3.5" /> : <CheckCheck aria-hidden="true" />}
              Mark all as read
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-2 text-destructive hover:text-destructive"
              disabled={notifications.length === 0 || busy}
              onClick={() => clearAll.mutate()}
              data-testid="button-clear-all"
            >
              {clearAll.isPending ? <Spinner className="size-3.5" /> : <Trash2 aria-hidden="true" />}
              Clear All
            </Button>
          </div>
        </div>
        <ScrollArea style={{ height: LIST_HEIGHT_PX[placement] }} data-testid="scroll-notifications">
          <NotificationList
            loading={list.isLoading}
            error={list.error}
            notifications={notifications}
            onRetry={() => void list.refetch()}
            onActivate={activate}
            onDelete={(id) => remove.mutate(id)}
            deletingId={remove.isPending ? remove.variables : undefined}
          />
        </ScrollArea>
      </PopoverContent>
    </Popover>
  );
}

interface NotificationListProps {
  loading: boolean;
  error: Error | null;
  notifications: Notification[];
  onRetry: () => void;
  onActivate: (notification: Notification) => void;
  onDelete: (id: string) => void;
  deletingId: string | undefined;
}

function NotificationList({
  loading,
  error,
  notifications,
  onRetry,
  onActivate,
  onDelete,
  deletingId,
}: NotificationListProps) {
  if (loading) {
    return (
      <div role="status" className="grid grid-cols-1 gap-3 p-3" data-testid="notifications-loading">
        <span className="sr-only">Loading notifications…</span>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  }
  if (error) {
    return (
      <div role="alert" className="grid grid-cols-1 justify-items-center gap-3 p-6 text-center text-sm">
        <p className="text-destructive">Notifications could not be loaded: {errorMessage(error)}</p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  if (notifications.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 px-6 py-12 text-center text-muted-foreground text-sm"
        data-testid="text-notifications-empty"
      >
        <BellOff className="size-6" aria-hidden="true" />
        No notifications
      </div>
    );
  }
  return (
    <ul className="divide-y" data-testid="list-notifications">
      {notifications.map((notification) => (
        <li
          key={notification.id}
          className={cn('flex items-start gap-1 py-1 pr-1.5 pl-1', !notification.read && 'bg-primary/5')}
          data-testid={`item-notification-${notification.id}`}
          data-read={notification.read}
        >
          <button
            type="button"
            onClick={() => onActivate(notification)}
            className="grid grid-cols-1 min-w-0 flex-1 gap-1 rounded-md px-2 py-1.5 text-left hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            data-testid={`button-notification-${notification.id}`}
          >
            <span className="flex min-w-0 items-start gap-2">
              {!notification.read && (
                <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" aria-hidden="true" />
              )}
              <span className="min-w-0 flex-1 break-words font-medium text-sm leading-snug">
                {notification.title}
              </span>
              <Badge
                variant={notificationBadgeVariant(notification.type)}
                className="shrink-0"
                data-testid={`badge-notification-type-${notification.id}`}
              >
                {notification.type}
              </Badge>
            </span>
            <span className="text-muted-foreground text-sm leading-snug">{notification.message}</span>
            <span className="flex items-center gap-2 text-muted-foreground text-xs">
              <time
                dateTime={notification.createdAt}
                data-testid={`text-notification-time-${notification.id}`}
              >
                {formatNotificationTime(notification.createdAt)}
              </time>
              {!notification.read && <span className="sr-only">Unread.</span>}
            </span>
          </button>
          <Button
            variant="ghost"
            size="icon"
            className="mt-1 size-7 shrink-0 text-muted-foreground"
            aria-label={`Delete notification: ${notification.title}`}
            disabled={deletingId === notification.id}
            onClick={() => onDelete(notification.id)}
            data-testid={`button-delete-notification-${notification.id}`}
          >
            {deletingId === notification.id ? <Spinner className="size-3.5" /> : <X aria-hidden="true" />}
          </Button>
        </li>
      ))}
    </ul>
  );
}
