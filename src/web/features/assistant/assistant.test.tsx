import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Analysis, analysisSchema } from '@/contracts/assistant';
import { Toaster } from '@/web/components/ui/toaster';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import FinanceAssistant from './finance-assistant';
import { formatConfidence, formatDays, GREETING, QUICK_QUERIES } from './messages';

const REPLY: Analysis = {
  summary: 'Setting the daily payment to KES 70.00 on 12 contracts: they end 12 days sooner on average.',
  details: [
    'Changed: 12 contracts of 20 contracts in the active portfolio.',
    'Left out: 8 contracts are not daily contracts.',
  ],
  impacts: { termReduction: 12, interestSavings: 123456 },
  confidence: 0.856,
  currency: 'KES',
  assumptions: ['Applies to all active daily contracts'],
  suggestions: [],
};

type Answer = () => Promise<Response> | Response;

/** fetch stub: the CSRF token, and /api/ai/analyze answered by `answer`; records the queries sent. */
function mockApi(answer: Answer = () => jsonResponse(REPLY)) {
  const queries: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
    if (url === '/api/ai/analyze' && init?.method === 'POST') {
      queries.push((JSON.parse(String(init.body)) as { query: string }).query);
      return answer();
    }
    return jsonResponse({ message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, queries };
}

async function openAssistant() {
  const user = userEvent.setup();
  renderWithProviders(
    <>
      <FinanceAssistant />
      <Toaster />
    </>,
  );
  await user.click(screen.getByTestId('button-assistant-toggle'));
  const panel = await screen.findByTestId('panel-assistant');
  const input = within(panel).getByTestId('input-assistant');
  await waitFor(() => expect(input).toHaveFocus());
  return { user, panel, input: input as HTMLTextAreaElement };
}

describe('Finance AI Assistant', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens from the robot button with the greeting, and closes with the button, the close button or Escape', async () => {
    mockApi();
    const { user, panel } = await openAssistant();
    expect(within(panel).getByRole('heading', { name: 'Finance AI Assistant' })).toBeInTheDocument();
    expect(within(panel).getByTestId('message-assistant')).toHaveTextContent(GREETING);
    expect(GREETING).toContain(
      'payment acceleration, APR adjustments, service discount modeling and risk assessment queries',
    );
    expect(within(panel).getByPlaceholderText('Ask me about your portfolio...')).toBeInTheDocument();
    const toggle = screen.getByTestId('button-assistant-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    await user.click(toggle);
    expect(panel).not.toBeVisible();
    await user.click(toggle);
    await waitFor(() => expect(within(panel).getByTestId('input-assistant')).toHaveFocus());
    await user.click(within(panel).getByTestId('button-assistant-close'));
    expect(panel).not.toBeVisible();
    expect(toggle).toHaveFocus();

    await user.click(toggle);
    await waitFor(() => expect(within(panel).getByTestId('input-assistant')).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(panel).not.toBeVisible();
    await waitFor(() => expect(toggle).toHaveFocus());
  });

  it('fills the input from a quick query and sends it at once', async () => {
    const { queries } = mockApi();
    const { user, panel } = await openAssistant();
    expect(QUICK_QUERIES).toEqual([
      'Increase daily payment to $0.50',
      '20% service discount for 30 days',
      'Adjust APR to 19%',
    ]);
    for (const [index, query] of QUICK_QUERIES.entries()) {
      await user.click(within(panel).getByTestId(`button-quick-query-${index}`));
      await waitFor(() => expect(queries).toHaveLength(index + 1));
      expect(queries[index]).toBe(query);
      expect(within(panel).getAllByTestId('message-user')[index]).toHaveTextContent(query);
      await waitFor(() =>
        expect(within(panel).getAllByTestId('text-assistant-summary')).toHaveLength(index + 1),
      );
    }
  });

  it('sends on Enter, not on Shift+Enter, trims, and never sends a blank question', async () => {
    const { queries, fetchMock } = mockApi();
    const { user, panel, input } = await openAssistant();
    const send = within(panel).getByTestId('button-assistant-send');
    expect(send).toBeDisabled();

    await user.type(input, '   ');
    expect(send).toBeDisabled();
    await user.keyboard('{Enter}');
    await user.click(send);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(within(panel).queryByTestId('message-user')).toBeNull();

    await user.clear(input);
    await user.type(input, '  What is PAR30?');
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(input.value).toBe('  What is PAR30?\n');
    expect(queries).toEqual([]);
    await user.type(input, 'And PAR90?  ');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(queries).toEqual(['What is PAR30?\nAnd PAR90?']));
    expect(input.value).toBe('');
    expect(within(panel).getByTestId('message-user')).toHaveTextContent('What is PAR30? And PAR90?');
  });

  it("shows 'Analyzing...' while the answer is pending and disables sending", async () => {
    let resolve: (response: Response) => void = () => undefined;
    mockApi(() => new Promise<Response>((r) => (resolve = r)));
    const { user, panel, input } = await openAssistant();
    await user.type(input, 'Adjust APR to 19%{Enter}');
    expect(await within(panel).findByTestId('text-assistant-loading')).toHaveTextContent('Analyzing...');
    await user.type(input, 'next question');
    expect(within(panel).getByTestId('button-assistant-send')).toBeDisabled();
    expect(within(panel).getByTestId('button-quick-query-0')).toBeDisabled();
    resolve(jsonResponse(REPLY));
    await within(panel).findByTestId('text-assistant-summary');
    expect(within(panel).queryByTestId('text-assistant-loading')).toBeNull();
    expect(within(panel).getByTestId('button-assistant-send')).toBeEnabled();
  });

  it('shows the summary, the impacts in days and in the reply’s currency, and the confidence as a percentage', async () => {
    mockApi();
    const { user, panel } = await openAssistant();
    await user.click(within(panel).getByTestId('button-quick-query-0'));
    expect(await within(panel).findByTestId('text-assistant-summary')).toHaveTextContent(REPLY.summary);
    expect(within(panel).getByTestId('text-term-reduction')).toHaveTextContent('12 days');
    // KES from minor units: 123456 cents -> KES 1,234.56 (Intl puts a no-break space after the code).
    expect(within(panel).getByTestId('text-interest-savings').textContent).toBe('KES\u00a01,234.56');
    expect(within(panel).getByTestId('text-confidence')).toHaveTextContent('86%');
    expect(within(panel).getByTestId('list-assumptions')).toHaveTextContent(
      'Applies to all active daily contracts',
    );
    // No suggestions sent, none offered.
    expect(within(panel).queryByTestId('button-suggestion-0')).toBeNull();
    expect(within(panel).getByRole('log')).toHaveAttribute('aria-live', 'polite');
  });

  it('keeps the figures behind the summary folded until the user opens them', async () => {
    mockApi();
    const { user, panel } = await openAssistant();
    await user.click(within(panel).getByTestId('button-quick-query-0'));
    const details = await within(panel).findByTestId('details-assistant');
    expect(details).not.toHaveAttribute('open');
    expect(within(panel).getByTestId('list-assistant-details')).not.toBeVisible();
    await user.click(within(details).getByText('Show details'));
    expect(details).toHaveAttribute('open');
    expect(within(panel).getByTestId('list-assistant-details')).toBeVisible();
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(expect.arrayContaining(REPLY.details));
  });

  it('offers the suggestions of a confident answer too (an amount in another currency)', async () => {
    const { queries } = mockApi(() =>
      jsonResponse({
        ...REPLY,
        summary:
          '$0.50 is in dollars ($), but your books are in Kenyan Shilling (KES), so nothing was modelled.',
        details: [],
        impacts: { termReduction: 0, interestSavings: 0 },
        confidence: 0.9,
        suggestions: ['Increase daily payment to KES 70'],
      }),
    );
    const { user, panel } = await openAssistant();
    await user.click(within(panel).getByTestId('button-quick-query-0'));
    await user.click(await within(panel).findByTestId('button-suggestion-0'));
    await waitFor(() =>
      expect(queries).toEqual(['Increase daily payment to $0.50', 'Increase daily payment to KES 70']),
    );
    expect(within(panel).queryByTestId('details-assistant')).toBeNull();
  });

  it('offers the suggestions of a low-confidence answer as one-click questions', async () => {
    const { queries } = mockApi(() =>
      jsonResponse({
        ...REPLY,
        summary: 'I did not understand that question.',
        impacts: { termReduction: 0, interestSavings: 0 },
        confidence: 0.2,
        currency: 'USD',
        assumptions: [],
        suggestions: ['What is PAR30?', 'Adjust APR to 19%'],
      }),
    );
    const { user, panel, input } = await openAssistant();
    await user.type(input, 'How is the weather?{Enter}');
    const suggestion = await within(panel).findByTestId('button-suggestion-0');
    expect(within(panel).getByTestId('text-confidence')).toHaveTextContent('20%');
    expect(within(panel).getByTestId('text-interest-savings')).toHaveTextContent('$0.00');
    await user.click(suggestion);
    await waitFor(() => expect(queries).toEqual(['How is the weather?', 'What is PAR30?']));
  });

  it("shows the 'Analysis Error' toast when the request fails", async () => {
    mockApi(() => new Response('Internal Server Error', { status: 500 }));
    const { user, panel, input } = await openAssistant();
    await user.type(input, 'Adjust APR to 19%{Enter}');
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Analysis Error');
    expect(toast).toHaveTextContent('Failed to process your query. Please try again.');
    expect(within(panel).queryByTestId('text-assistant-loading')).toBeNull();
    expect(within(panel).getAllByTestId('message-assistant')).toHaveLength(1);
  });

  it('treats an answer of the wrong shape as a failure', async () => {
    mockApi(() => jsonResponse({ summary: 'no impacts here' }));
    const { user, input } = await openAssistant();
    await user.type(input, 'Adjust APR to 19%{Enter}');
    expect(await screen.findByTestId('toast')).toHaveTextContent('Analysis Error');
  });
});

describe('assistant formatting', () => {
  it('formats confidence, days and checks the contract shape', () => {
    expect(formatConfidence(0)).toBe('0%');
    expect(formatConfidence(0.5)).toBe('50%');
    expect(formatConfidence(1)).toBe('100%');
    expect(formatDays(1)).toBe('1 day');
    expect(formatDays(-5)).toBe('-5 days');
    expect(formatDays(1200)).toBe('1,200 days');
    const valid = (value: unknown) => analysisSchema.safeParse(value).success;
    expect(valid(REPLY)).toBe(true);
    expect(valid({ ...REPLY, confidence: 1.2 })).toBe(false);
    expect(valid({ ...REPLY, impacts: { termReduction: 1.5, interestSavings: 0 } })).toBe(false);
    expect(valid(null)).toBe(false);
  });
});
