import { screen } from '@testing-library/react';
import { SearchX } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/web/lib/queryClient';
import { renderWithProviders } from '@/web/test/render';
import { BackLink, DetailPageStates, type DetailTexts } from './detail-page';

const TEXTS: DetailTexts = {
  notFoundTitle: 'Unit not found',
  notFound: 'No unit has this address',
  failed: 'The unit could not be loaded',
  list: { href: '/devices', label: 'Back to the inventory' },
};
const AREA = { title: 'Devices', icon: SearchX };
const back = (
  <BackLink href="/devices" testId="link-back-devices">
    Devices
  </BackLink>
);

describe('DetailPageStates', () => {
  it('says a record is not found for 404 and 400, with the way back to the list', () => {
    for (const status of [404, 400]) {
      const { unmount } = renderWithProviders(
        <DetailPageStates
          query={{ isLoading: false, error: new ApiError(status, JSON.stringify({ message: 'Not found' })) }}
          area={AREA}
          back={back}
          texts={TEXTS}
        />,
      );
      expect(screen.getByTestId('text-page-title')).toHaveTextContent('Unit not found');
      expect(screen.getByTestId('card-not-found')).toHaveTextContent(
        'No unit has this address. It may have been mistyped, or the link is old.',
      );
      expect(screen.getByRole('link', { name: 'Back to the inventory' })).toHaveAttribute('href', '/devices');
      expect(screen.getByTestId('link-back-devices')).toHaveTextContent('Devices');
      unmount();
    }
  });

  it('says why the record could not be loaded otherwise, as an alert under the area title', () => {
    renderWithProviders(
      <DetailPageStates
        query={{ isLoading: false, error: new Error('Network down') }}
        area={AREA}
        back={back}
        texts={TEXTS}
      />,
    );
    expect(screen.getByTestId('text-page-title')).toHaveTextContent('Devices');
    expect(screen.getByRole('alert')).toHaveTextContent('The unit could not be loaded: Network down');
    expect(screen.getByTestId('card-error')).toBeInTheDocument();
  });
});
