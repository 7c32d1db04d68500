import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserActions, ErrorBoundary } from './error-boundary';

function Boom(): never {
  throw new Error('Chunk load failed: dashboard');
}

afterEach(() => vi.restoreAllMocks());

describe('ErrorBoundary (seed section 8)', () => {
  it('shows the texts, the error message and both buttons', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.spyOn(browserActions, 'reload').mockImplementation(() => undefined);
    const goHome = vi.spyOn(browserActions, 'goHome').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Boom />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'The application encountered an unexpected error. This might be due to a server restart or temporary issue.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('text-error-message')).toHaveTextContent('Chunk load failed: dashboard');

    await userEvent.click(screen.getByRole('button', { name: 'Reload Page' }));
    expect(reload).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Go Home' }));
    expect(goHome).toHaveBeenCalledTimes(1);
  });

  it('goes home to /', () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);
    browserActions.goHome();
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('renders its children when nothing fails, and recovers when the reset key changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rerender } = render(
      <ErrorBoundary resetKey="/a">
        <Boom />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    rerender(
      <ErrorBoundary resetKey="/b">
        <p>Fine now</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('Fine now')).toBeInTheDocument();
  });
});
