import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster } from '@/web/components/ui/toaster';
import { reducer, TOAST_LIMIT, TOAST_REMOVE_DELAY, type ToasterToast, toast } from './use-toast';

const make = (id: string): ToasterToast => ({ id, open: true, onOpenChange: () => undefined, title: id });

describe('toast store (seed: one toast at a time)', () => {
  it('keeps a limit of one, newest first', () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: make('a') });
    state = reducer(state, { type: 'ADD_TOAST', toast: make('b') });
    expect(state.toasts.map((t) => t.id)).toEqual(['b']);
  });

  it('removes a dismissed toast only after 1000000 ms', () => {
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
    const state = reducer({ toasts: [make('a')] }, { type: 'DISMISS_TOAST', toastId: 'a' });
    expect(state.toasts[0]?.open).toBe(false);
  });

  it('shows only the latest toast in the Toaster', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First toast' });
      toast({ title: 'Second toast', variant: 'destructive' });
    });
    expect(screen.queryByText('First toast')).not.toBeInTheDocument();
    expect(screen.getByText('Second toast')).toBeInTheDocument();
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
  });
});
