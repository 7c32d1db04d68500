import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tutorial, TutorialProgress } from '@/contracts/help';
import { Toaster } from '@/web/components/ui/toaster';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import HelpCentreDialog from './help-centre-dialog';
import {
  checkNewFeatures,
  groupTutorials,
  HAS_SEEN_TUTORIAL_KEY,
  LAST_FEATURE_CHECK_KEY,
  percentComplete,
} from './help-rules';
import { helpCentre } from './help-store';
import { TutorialCatalogue } from './tutorial-catalogue';
import { TutorialPlayer } from './tutorial-player';

function tutorial(
  id: string,
  category: Tutorial['category'],
  steps = 3,
  extra: Partial<Tutorial> = {},
): Tutorial {
  return {
    id,
    name: `Tutorial ${id}`,
    description: `About ${id}`,
    category,
    difficulty: 'beginner',
    estimatedTime: 5,
    isNew: false,
    steps: Array.from({ length: steps }, (_, i) => ({
      id: `s${i + 1}`,
      title: `Step title ${i + 1}`,
      content: `Step content ${i + 1}`,
    })),
    ...extra,
  };
}

const progress = (tutorialId: string, completedSteps: string[]): TutorialProgress => ({
  tutorialId,
  completedSteps,
});

beforeEach(() => {
  helpCentre.reset();
  window.localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('percent complete (seed: completed steps over total, rounded)', () => {
  it('rounds, ignores unknown step ids and duplicates, and is 0 without a record', () => {
    const three = tutorial('t', 'basics', 3);
    expect(percentComplete(three, [])).toBe(0);
    expect(percentComplete(three, [progress('t', ['s1'])])).toBe(33);
    expect(percentComplete(three, [progress('t', ['s1', 's2'])])).toBe(67);
    expect(percentComplete(three, [progress('t', ['s1', 's2', 's3'])])).toBe(100);
    expect(percentComplete(three, [progress('t', ['s1', 's1', 'started', 'gone'])])).toBe(33);
    expect(percentComplete(three, [progress('other', ['s1'])])).toBe(0);
    expect(percentComplete(tutorial('t', 'basics', 8), [progress('t', ['s1'])])).toBe(13);
    expect(percentComplete(tutorial('t', 'basics', 0), [])).toBe(0);
  });
});

describe('tutorial groups', () => {
  it('orders basics, financing, analytics, compliance, ai and hides empty groups', () => {
    const list = [
      tutorial('a', 'ai'),
      tutorial('c', 'compliance'),
      tutorial('b', 'basics'),
      tutorial('n', 'analytics'),
      tutorial('b2', 'basics'),
    ];
    expect(groupTutorials(list).map((g) => [g.category, g.tutorials.map((t) => t.id)])).toEqual([
      ['basics', ['b', 'b2']],
      ['analytics', ['n']],
      ['compliance', ['c']],
      ['ai', ['a']],
    ]);
  });

  it('renders the groups in order with NEW, difficulty, time, a check at 100% and a bar from 1 to 99', () => {
    const list = [
      tutorial('done', 'compliance', 2),
      tutorial('half', 'basics', 4, { isNew: true, difficulty: 'advanced', estimatedTime: 7 }),
      tutorial('fresh', 'basics', 3),
    ];
    renderWithProviders(
      <TutorialCatalogue
        tutorials={list}
        progress={[progress('done', ['s1', 's2']), progress('half', ['s1', 's2'])]}
        loading={false}
        error={null}
        onRetry={() => undefined}
        onStart={() => undefined}
      />,
    );
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings).toEqual(['Basics', 'Compliance']);
    expect(screen.queryByText('Financing')).not.toBeInTheDocument();
    const half = screen.getByTestId('card-tutorial-half');
    expect(within(half).getByText('NEW')).toBeInTheDocument();
    expect(within(half).getByText('Advanced')).toBeInTheDocument();
    expect(within(half).getByText('7 min')).toBeInTheDocument();
    expect(within(half).getByTestId('progress-tutorial-half')).toBeInTheDocument();
    expect(within(half).getByTestId('text-tutorial-progress-half')).toHaveTextContent('50%');
    expect(screen.getByTestId('icon-tutorial-complete-done')).toBeInTheDocument();
    expect(screen.queryByTestId('progress-tutorial-done')).not.toBeInTheDocument();
    expect(screen.getByTestId('text-tutorial-progress-fresh')).toHaveTextContent('Not started');
    expect(screen.queryByTestId('progress-tutorial-fresh')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('card-tutorial-fresh')).queryByText('NEW')).not.toBeInTheDocument();
  });
});

describe('local store (seed section 4)', () => {
  it('sets the flag once a day when new features exist, and stores the date', () => {
    expect(checkNewFeatures([{ isNew: false }], 'Sun Nov 22 2026')).toBe(false);
    expect(window.localStorage.getItem(LAST_FEATURE_CHECK_KEY)).toBeNull();
    expect(checkNewFeatures([{ isNew: true }], 'Sun Nov 22 2026')).toBe(true);
    expect(window.localStorage.getItem(LAST_FEATURE_CHECK_KEY)).toBe('Sun Nov 22 2026');
    expect(checkNewFeatures([{ isNew: true }], 'Sun Nov 22 2026')).toBe(false);
    expect(checkNewFeatures([{ isNew: true }], 'Mon Nov 23 2026')).toBe(true);
  });
});

type Posted = { tutorialId: string; stepId: string; completed: boolean };

function serveHelp(tutorials: Tutorial[]) {
  const posted: Posted[] = [];
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      requests.push(`${init?.method ?? 'GET'} ${url}`);
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 't' });
      if (url === '/api/tutorials') return jsonResponse(tutorials);
      if (url === '/api/features') return jsonResponse([]);
      if (url === '/api/user/tutorial-progress' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)) as Posted);
        return jsonResponse({ ok: true }, 201);
      }
      if (url === '/api/user/tutorial-progress') return jsonResponse([]);
      return new Response('', { status: 404 });
    }),
  );
  return { posted, requests };
}

describe('tutorial player', () => {
  it('starts at step 1 recording "started", goes Next and Previous, and Finish shows the seed toast', async () => {
    const two = tutorial('tour', 'basics', 2, { name: 'Guided tour' });
    const { posted, requests } = serveHelp([two]);
    renderWithProviders(
      <>
        <HelpCentreDialog />
        <TutorialPlayer />
        <Toaster />
      </>,
    );
    // Nothing is fetched while the help centre is closed.
    expect(requests).toEqual([]);
    act(() => helpCentre.open());
    const dialog = await screen.findByTestId('dialog-help-centre');
    fireEvent.click(await within(dialog).findByTestId('button-start-tutorial-tour'));

    const player = await screen.findByTestId('panel-tutorial-player');
    expect(screen.queryByTestId('dialog-help-centre')).not.toBeInTheDocument();
    expect(helpCentre.get().tab).toBe('tutorials');
    expect(within(player).getByText('Guided tour')).toBeInTheDocument();
    expect(within(player).getByTestId('text-tutorial-step-count')).toHaveTextContent('Step 1 of 2');
    expect(within(player).getByTestId('text-tutorial-step-title')).toHaveTextContent('Step title 1');
    expect(within(player).getByTestId('button-tutorial-previous')).toBeDisabled();
    expect(within(player).getByTestId('button-tutorial-next')).toHaveTextContent('Next');
    await waitFor(() =>
      expect(posted).toEqual([{ tutorialId: 'tour', stepId: 'started', completed: false }]),
    );

    fireEvent.click(within(player).getByTestId('button-tutorial-next'));
    expect(within(player).getByTestId('text-tutorial-step-count')).toHaveTextContent('Step 2 of 2');
    expect(within(player).getByTestId('button-tutorial-next')).toHaveTextContent('Finish');
    expect(within(player).getByTestId('button-tutorial-previous')).toBeEnabled();
    fireEvent.click(within(player).getByTestId('button-tutorial-previous'));
    expect(within(player).getByTestId('text-tutorial-step-count')).toHaveTextContent('Step 1 of 2');
    fireEvent.click(within(player).getByTestId('button-tutorial-next'));

    fireEvent.click(within(player).getByTestId('button-tutorial-next'));
    expect(await screen.findByText('Tutorial Completed! 🎉')).toBeInTheDocument();
    expect(screen.getByText('You\'ve completed "Guided tour". Great job!')).toBeInTheDocument();
    expect(screen.queryByTestId('panel-tutorial-player')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(HAS_SEEN_TUTORIAL_KEY)).toBe('true');
    await waitFor(() =>
      expect(posted.slice(1)).toEqual([
        { tutorialId: 'tour', stepId: 's1', completed: true },
        { tutorialId: 'tour', stepId: 's1', completed: true },
        { tutorialId: 'tour', stepId: 's2', completed: true },
      ]),
    );
  });

  it('goes to the step page and highlights its target; closing marks the tutorial seen', async () => {
    serveHelp([]);
    const target = document.createElement('div');
    target.dataset.testid = 'thing';
    target.getBoundingClientRect = () => ({
      x: 10,
      y: 20,
      width: 100,
      height: 40,
      top: 20,
      left: 10,
      right: 110,
      bottom: 60,
      toJSON: () => ({}),
    });
    document.body.append(target);
    const scroll = vi.spyOn(target, 'scrollIntoView');
    const { history } = renderWithProviders(<TutorialPlayer />, { path: '/' });
    act(() =>
      helpCentre.startPlayer({
        ...tutorial('t', 'basics', 1),
        steps: [
          { id: 'a', title: 'Here', content: 'Look', path: '/settings', target: '[data-testid="thing"]' },
        ],
      }),
    );
    await waitFor(() => expect(history.at(-1)).toBe('/settings'));
    expect(await screen.findByTestId('tutorial-highlight')).toBeInTheDocument();
    expect(scroll).toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('button-close-tutorial'));
    expect(screen.queryByTestId('panel-tutorial-player')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(HAS_SEEN_TUTORIAL_KEY)).toBe('true');
    target.remove();
  });
});
