import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DelayedSpinner, SPINNER_DELAY_MS } from './loaders';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('DelayedSpinner (seed: the signed-in spinner appears only after 200 ms)', () => {
  it('shows nothing before 200 ms and the spinner from 200 ms', () => {
    expect(SPINNER_DELAY_MS).toBe(200);
    render(<DelayedSpinner />);
    expect(screen.queryByTestId('spinner-page')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(199));
    expect(screen.queryByTestId('spinner-page')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('spinner-page')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
  });

  it('never shows when unmounted before the delay (a fast page load)', () => {
    const { unmount } = render(<DelayedSpinner />);
    act(() => vi.advanceTimersByTime(150));
    unmount();
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByTestId('spinner-page')).not.toBeInTheDocument();
  });
});
