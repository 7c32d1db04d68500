import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvestorSummary } from '@/contracts/investor';
import { stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { InvestorPortal } from './portal';

afterEach(() => {
  vi.unstubAllGlobals();
});

const SUMMARY: InvestorSummary = {
  asOf: '2026-11-03',
  currency: 'KES',
  disbursed: 12_000_000,
  contracts: 100,
  outstanding: 8_000_000,
  liveContracts: 80,
  collected: 5_000_000,
  par30: 0.125,
  par90: 0.05,
  par30Amount: 1_000_000,
  par90Amount: 400_000,
  collectionRate: 0.9,
  yield: 0.2,
  defaults: { count: 3, principal: 200_000, writtenOffCount: 1, writtenOffPrincipal: 50_000 },
  recoveries: { repossessedCount: 2, repossessedPrincipal: 80_000 },
};

const charts = {
  'GET /api/investor/cash-flows': () => jsonResponse({ currency: 'KES', months: [] }),
  'GET /api/investor/vintages': () => jsonResponse({ currency: 'KES', vintages: [] }),
  'GET /api/investor/par-trend': () => jsonResponse({ points: [] }),
};

describe('investor portal', () => {
  it('signs in with a code, then shows the figures of the latest close', async () => {
    let signedIn = false;
    const calls = stubApi({
      'GET /api/investor/me': () =>
        signedIn
          ? jsonResponse({ label: 'Acme', scope: { kind: 'tag', tag: 'fund-a' } })
          : jsonResponse({ message: 'Sign in with your investor code', code: 'UNAUTHENTICATED' }, 401),
      'POST /api/investor/login': () => {
        signedIn = true;
        return jsonResponse({ label: 'Acme', scope: { kind: 'tag', tag: 'fund-a' } });
      },
      'GET /api/investor/summary': () => jsonResponse(SUMMARY),
      ...charts,
    });
    renderWithProviders(<InvestorPortal />);
    fireEvent.change(await screen.findByTestId('input-investor-code'), { target: { value: 'abcd-efgh' } });
    fireEvent.click(screen.getByTestId('button-investor-sign-in'));
    expect(await screen.findByTestId('value-investor-par30')).toHaveTextContent('12.5%');
    expect(screen.getByTestId('value-investor-collection-rate')).toHaveTextContent('90.0%');
    expect(screen.getByTestId('value-investor-disbursed')).toHaveTextContent(/KES\s120,000\.00/);
    expect(screen.getByTestId('text-investor-scope')).toHaveTextContent(
      'Acme · Fund “fund-a” · figures at the close of 2026-11-03',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'abcd-efgh' });
    expect(screen.getByTestId('link-report-pdf')).toHaveAttribute(
      'href',
      '/api/investor/report.pdf?from=2026-01-01&to=2026-11-03',
    );
  });

  it('says when no business date has been closed yet', async () => {
    stubApi({
      'GET /api/investor/me': () => jsonResponse({ label: 'Acme', scope: { kind: 'portfolio' } }),
      'GET /api/investor/summary': () => jsonResponse({ ...SUMMARY, asOf: null }),
      ...charts,
    });
    renderWithProviders(<InvestorPortal />);
    expect(await screen.findByText(/No business date has been closed yet/)).toBeInTheDocument();
  });
});
