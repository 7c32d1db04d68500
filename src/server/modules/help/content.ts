import type { Feature, Tutorial } from '../../../contracts/help';

/**
 * The help centre's tutorials and feature list. Every step's `target` is a selector that exists
 * on the page named by its `path` (a browser test checks each one, signed in as the owner).
 * Several targets name a desktop and a phone variant ("a, b"): the player highlights the one shown.
 * Only screens that exist are covered.
 */

const BELL = '[data-testid="button-notifications"], [data-testid="button-notifications-mobile"]';
const ACCOUNT_MENU = '[data-testid="button-profile-menu"], [data-testid="button-more-menu"]';

export const TUTORIALS: Tutorial[] = [
  {
    id: 'getting-around',
    name: 'Finding your way around',
    description: 'The dashboard, the main navigation, the tools menu and your account menu.',
    category: 'basics',
    difficulty: 'beginner',
    estimatedTime: 3,
    isNew: false,
    steps: [
      {
        id: 'dashboard',
        title: 'Your dashboard',
        content:
          'You land here after signing in. The portfolio cards show the figures of the last close of business (outstanding, collections against amounts due, portfolio at risk, locked devices, the collections queue), each with its 30-day trend; select one to open the list behind it. Below, links to every area.',
        path: '/',
        target: '[data-testid="text-page-title"]',
      },
      {
        id: 'main-navigation',
        title: 'Main navigation',
        content:
          'Dashboard, Contracts, Collections, CRM, Communications and Analytics are one click away (at the bottom of the screen on a phone). The page you are on is marked.',
        path: '/',
        target: 'nav[aria-label="Main"], nav[aria-label="Main mobile"]',
      },
      {
        id: 'tools-menu',
        title: 'Tools and administration',
        content:
          'The gear (More on a phone) opens the tools: reports, payments, risk, finance, scenarios and the help centre. Administrators also find the administration pages there.',
        path: '/',
        target: '[data-testid="button-settings-menu"], [data-testid="button-more-menu"]',
      },
      {
        id: 'areas',
        title: 'Every area at a glance',
        content:
          'The dashboard lists each area with one line on what it does, grouped into lending, servicing, customers and messages, and oversight.',
        path: '/',
        target: '[data-testid="section-lending"]',
      },
      {
        id: 'account-menu',
        title: 'Your account',
        content: 'Your profile, your preferences, Help & Support and Sign Out are in the account menu.',
        path: '/',
        target: ACCOUNT_MENU,
      },
    ],
  },
  {
    id: 'search-and-shortcuts',
    name: 'Search and keyboard shortcuts',
    description: 'Reach any page or action with Ctrl+K, and the four shortcuts worth knowing.',
    category: 'basics',
    difficulty: 'beginner',
    estimatedTime: 2,
    isNew: true,
    steps: [
      {
        id: 'search',
        title: 'Search everything',
        content:
          'Press Ctrl+K (⌘K on a Mac) or this button, type a few letters of a page or an action, move with the arrow keys and press Enter.',
        path: '/',
        target: '[data-testid="button-command-palette"]',
      },
      {
        id: 'shortcuts',
        title: 'Keyboard shortcuts',
        content:
          'Ctrl+? opens help, Ctrl+N starts a new contract and Ctrl+D goes back to the dashboard. Inside a text field only Ctrl+K works, so typing is never interrupted.',
        path: '/help',
        target: '[data-testid="section-shortcuts"]',
      },
      {
        id: 'theme',
        title: 'Light or dark',
        content:
          'Switch the theme here, or search for “Toggle theme”. Your choice is saved and follows you to other browsers.',
        path: '/',
        target: '[data-testid="button-theme-toggle"]',
      },
    ],
  },
  {
    id: 'notifications',
    name: 'Staying on top of notifications',
    description: 'What the bell counts, how to act on a notification, and how to choose what you receive.',
    category: 'basics',
    difficulty: 'beginner',
    estimatedTime: 2,
    isNew: true,
    steps: [
      {
        id: 'bell',
        title: 'The bell',
        content:
          'The red badge counts your unread notifications (9+ when there are more than nine). It refreshes every 30 seconds.',
        path: '/',
        target: BELL,
      },
      {
        id: 'open',
        title: 'Reading and acting',
        content:
          'Open the bell to see your latest notifications. Clicking one marks it read and takes you to what it is about; the small × deletes it.',
        path: '/',
        target: BELL,
      },
      {
        id: 'tidy',
        title: 'Mark all as read, or clear them',
        content:
          '“Mark all as read” keeps the list but clears the badge; “Clear All” deletes every notification for good.',
        path: '/',
        target: BELL,
      },
      {
        id: 'choose',
        title: 'Choose what you receive',
        content:
          'Switch off the kinds of notification you do not need in Settings; the others keep arriving.',
        path: '/settings',
        target: '[data-testid="group-notification-settings"]',
      },
    ],
  },
  {
    id: 'help-centre',
    name: 'Getting help',
    description: 'The help centre, the quick start, common questions and the tutorial catalogue.',
    category: 'basics',
    difficulty: 'beginner',
    estimatedTime: 2,
    isNew: false,
    steps: [
      {
        id: 'open',
        title: 'The help centre',
        content:
          'Open it from here, from Tools → Help center, or with Ctrl+? on any page. Tutorials, what is new and quick help are inside.',
        path: '/help',
        target: '[data-testid="button-open-help-centre"]',
      },
      {
        id: 'quick-start',
        title: 'Quick start',
        content:
          'The four steps of the daily work: add customers, create contracts, record payments and follow performance.',
        path: '/help',
        target: '[data-testid="section-quick-start"]',
      },
      {
        id: 'faq',
        title: 'Common questions',
        content: 'Short answers about accounts, two-factor sign-in, being signed out and the audit trail.',
        path: '/help',
        target: '[data-testid="section-faq"]',
      },
      {
        id: 'catalogue',
        title: 'Every tutorial',
        content:
          'All tutorials and your progress are also on the Tutorials page. A tutorial can be replayed at any time.',
        path: '/tutorials',
        target: '[data-testid="tutorial-catalogue"]',
      },
    ],
  },
  {
    id: 'preferences',
    name: 'Setting your preferences',
    description: 'Theme, the page you start on after signing in, and which notifications you receive.',
    category: 'basics',
    difficulty: 'beginner',
    estimatedTime: 2,
    isNew: false,
    steps: [
      {
        id: 'theme',
        title: 'Theme',
        content:
          'Light, dark, or the same as your device. It applies at once and is saved for every browser.',
        path: '/settings',
        target: '[data-testid="group-theme"]',
      },
      {
        id: 'landing',
        title: 'Where you start',
        content:
          'Choose the page DeviceFin opens on after you sign in: collectors often pick Collections, finance staff Payment processing.',
        path: '/settings',
        target: '[data-testid="select-landing-page"]',
      },
      {
        id: 'notifications',
        title: 'Notifications',
        content: 'Each kind of notification can be switched off. Changes are saved as you make them.',
        path: '/settings',
        target: '[data-testid="group-notification-settings"]',
      },
    ],
  },
  {
    id: 'your-profile',
    name: 'Keeping your profile up to date',
    description: 'Your name, the e-mail address you sign in with, and your password.',
    category: 'basics',
    difficulty: 'beginner',
    estimatedTime: 2,
    isNew: false,
    steps: [
      {
        id: 'details',
        title: 'Name and email',
        content: 'Colleagues see this name in lists, assignments and the audit trail.',
        path: '/profile',
        target: '[data-testid="card-profile-details"]',
      },
      {
        id: 'email',
        title: 'Changing your email',
        content:
          'You sign in with this address. Changing it asks for your current password, so nobody can take over an open session.',
        path: '/profile',
        target: '[data-testid="input-profile-email"]',
      },
      {
        id: 'password',
        title: 'Password',
        content:
          'A new password signs you out on every other browser and device; this one stays signed in. Use at least 10 characters.',
        path: '/profile',
        target: '[data-testid="card-password"]',
      },
    ],
  },
  {
    id: 'organisation-settings',
    name: 'Setting up the organisation (administrators)',
    description: 'Currency, country, time zone, arrears buckets and quiet hours for customer messages.',
    category: 'basics',
    difficulty: 'intermediate',
    estimatedTime: 4,
    isNew: false,
    steps: [
      {
        id: 'overview',
        title: 'Organisation settings',
        content:
          'These settings apply to everyone. Only administrators and the owner can change them; every change is recorded in the audit trail.',
        path: '/settings',
        target: '[data-testid="card-organisation"]',
      },
      {
        id: 'currency',
        title: 'Currency and country',
        content:
          'Amounts are kept in the currency’s smallest unit. Choose it before the first contract: changing it later does not convert amounts.',
        path: '/settings',
        target: '[data-testid="select-org-currency"]',
      },
      {
        id: 'time-zone',
        title: 'Time zone',
        content:
          'Due dates, the end of day and every date filter follow this time zone. Type a city to find it.',
        path: '/settings',
        target: '[data-testid="select-org-time-zone"]',
      },
      {
        id: 'buckets',
        title: 'Arrears buckets',
        content:
          'The first day past due of each bucket, in increasing order. The preview shows the buckets reports and collections will use.',
        path: '/settings',
        target: '[data-testid="group-org-buckets"]',
      },
      {
        id: 'quiet-hours',
        title: 'Quiet hours',
        content: 'No reminder or message is sent to customers between these times.',
        path: '/settings',
        target: '[data-testid="input-org-quiet-start"]',
      },
    ],
  },
  {
    id: 'two-factor',
    name: 'Turning on two-factor sign-in',
    description: 'Protect your account with an authenticator app, and keep recovery codes for a lost phone.',
    category: 'compliance',
    difficulty: 'intermediate',
    estimatedTime: 4,
    isNew: true,
    steps: [
      {
        id: 'why',
        title: 'Why two-factor',
        content:
          'After your password, DeviceFin asks for a 6-digit code from an app on your phone. A stolen password alone is then not enough to reach customer data.',
        path: '/profile',
        target: '[data-testid="card-two-factor"]',
      },
      {
        id: 'set-up',
        title: 'Setting it up',
        content:
          'Choose “Set up two-factor sign-in”, scan the QR code with your authenticator app (or type the key shown under it) and enter the code the app shows.',
        path: '/profile',
        target: '[data-testid="text-2fa-status"]',
      },
      {
        id: 'recovery-codes',
        title: 'Recovery codes',
        content:
          'You then get 10 recovery codes, shown once. Copy or download them and keep them safe: each one lets you sign in once without your phone.',
        path: '/profile',
        target: '[data-testid="card-two-factor"]',
      },
      {
        id: 'signing-in',
        title: 'Signing in',
        content:
          'From now on, enter the code from the app after your password, or a recovery code if the phone is lost. You can make new codes or turn it off here, with your password.',
        path: '/profile',
        target: '[data-testid="card-two-factor"]',
      },
    ],
  },
  {
    id: 'sessions',
    name: 'Reviewing your signed-in sessions',
    description: 'See every browser signed in to your account and sign the others out.',
    category: 'compliance',
    difficulty: 'beginner',
    estimatedTime: 2,
    isNew: false,
    steps: [
      {
        id: 'list',
        title: 'Where you are signed in',
        content:
          'Each browser or device signed in to your account, with its address and when it was last active.',
        path: '/profile',
        target: '[data-testid="card-sessions"]',
      },
      {
        id: 'this-device',
        title: 'This device',
        content: 'The one marked “This device” is the browser you are using now.',
        path: '/profile',
        target: '[data-testid="list-sessions"]',
      },
      {
        id: 'sign-out-others',
        title: 'Sign out the others',
        content:
          'If you do not recognise a session, or used a shared computer, sign out every other session. Then change your password.',
        path: '/profile',
        target: '[data-testid="button-revoke-other-sessions"]',
      },
    ],
  },
  {
    id: 'invites-and-roles',
    name: 'Inviting colleagues and setting roles (administrators)',
    description: 'Give staff an account with the right role, and change roles as work changes.',
    category: 'compliance',
    difficulty: 'intermediate',
    estimatedTime: 4,
    isNew: false,
    steps: [
      {
        id: 'users',
        title: 'Staff and roles',
        content:
          'Roles build on each other: viewer, agent, collector, finance, manager, administrator. Give each person the least role their work needs.',
        path: '/admin/users',
        target: '[data-testid="tab-users"]',
      },
      {
        id: 'change-role',
        title: 'Changing a role or deactivating',
        content:
          'Pick a new role in a person’s row, or deactivate them; they are told by a notification. The owner and your own account cannot be changed here.',
        path: '/admin/users',
        target: '[data-testid="table-users"]',
      },
      {
        id: 'invite',
        title: 'Inviting someone',
        content:
          'Enter their work e-mail (or leave it empty for anyone with the link) and choose the role they will have.',
        path: '/admin/users?tab=invites',
        target: '[data-testid="input-invite-email"]',
      },
      {
        id: 'link',
        title: 'The invite link',
        content:
          'The link is shown once and works once, for 7 days: send it yourself. You get a notification when it has been used.',
        path: '/admin/users?tab=invites',
        target: '[data-testid="button-create-invite"]',
      },
    ],
  },
  {
    id: 'audit-trail',
    name: 'Checking the audit trail (administrators)',
    description: 'Find who changed what and when, and check that the log has not been altered.',
    category: 'compliance',
    difficulty: 'intermediate',
    estimatedTime: 3,
    isNew: true,
    steps: [
      {
        id: 'entries',
        title: 'Every change and sign-in',
        content:
          'Each entry records the time, the person, the action, what it was about and the address it came from, newest first.',
        path: '/admin/audit',
        target: '[data-testid="table-audit"], [data-testid="list-audit"]',
      },
      {
        id: 'filters',
        title: 'Finding an entry',
        content:
          'Filter by action (such as auth.login), entity, the person’s e-mail or dates. “Load more” fetches older entries.',
        path: '/admin/audit',
        target: '[data-testid="form-audit-filters"]',
      },
      {
        id: 'details',
        title: 'What changed',
        content:
          'Details shows the values before and after the change, field by field, with the changed ones marked.',
        path: '/admin/audit',
        target: '[data-testid="table-audit"], [data-testid="list-audit"]',
      },
      {
        id: 'verify',
        title: 'Tamper check',
        content:
          'Each entry’s hash covers the one before it. “Verify chain” recomputes them all and names the first entry that does not match, if any.',
        path: '/admin/audit',
        target: '[data-testid="button-verify-chain"]',
      },
    ],
  },
  {
    id: 'usage',
    name: 'Seeing how the team uses DeviceFin (administrators)',
    description: 'Visits and time spent per section and per person over a date range.',
    category: 'analytics',
    difficulty: 'beginner',
    estimatedTime: 2,
    isNew: true,
    steps: [
      {
        id: 'range',
        title: 'Choose the dates',
        content: 'The last 7 days are shown first. Dates follow the organisation’s time zone.',
        path: '/admin/audit?tab=usage',
        target: '[data-testid="form-usage-range"]',
      },
      {
        id: 'sections',
        title: 'By section',
        content:
          'Visits, time spent and how many people used each part of the app: useful to see which screens need training.',
        path: '/admin/audit?tab=usage',
        target: '[data-testid="panel-usage-sections"]',
      },
      {
        id: 'people',
        title: 'By person',
        content: 'Who used the app in these dates, most visits first.',
        path: '/admin/audit?tab=usage',
        target: '[data-testid="panel-usage-people"]',
      },
    ],
  },
  {
    id: 'first-contract',
    name: 'Financing a device, from customer to active contract',
    description:
      'The whole path of a sale on credit: customer and KYC, a unit in stock, a plan, the contract wizard, approval and activation.',
    category: 'financing',
    difficulty: 'intermediate',
    estimatedTime: 8,
    isNew: true,
    steps: [
      {
        id: 'customer',
        title: 'Add the customer',
        content:
          'Name, phone (the country code comes from the organisation’s country), national ID and consents. A phone or ID already on file is refused with the name of the customer who has it. On the customer’s page, upload the ID and a selfie.',
        path: '/customers',
        target: '[data-testid="button-new-customer"]',
      },
      {
        id: 'kyc',
        title: 'Have the documents reviewed',
        content:
          'Another person verifies or rejects each document (never the one who uploaded it). Filter on KYC status to see who is waiting. A contract can only be activated for a verified customer.',
        path: '/customers',
        target: '[data-testid="select-filter-kyc-status"]',
      },
      {
        id: 'device',
        title: 'Put the device in stock',
        content:
          'Add the unit with its serial number (and IMEI for phones, checked as you type), or import many from a CSV file. OpenPAYGO units get their secret key here; it is stored encrypted and never shown again. Set the time divider as the device counts time (1 for days, 24 for hours), and give the starting code only if the device has one (never 0). A unit that reports over OpenPAYGO Metrics shows its readings on its page.',
        path: '/devices',
        target: '[data-testid="button-add-unit"]',
      },
      {
        id: 'plan',
        title: 'Pick an active plan',
        content:
          'The plan gives the frequency, the terms on offer, the APR, the minimum deposit and the fees. A contract keeps the version it was made on.',
        path: '/service-plans',
        target: '[data-testid="button-new-plan"]',
      },
      {
        id: 'wizard',
        title: 'Run the contract wizard',
        content:
          'Customer, device, plan, deposit and term, then the exact schedule from the finance engine before you submit. Ctrl+N opens the wizard from anywhere.',
        path: '/contracts',
        target: '[data-testid="button-new-contract"]',
      },
      {
        id: 'activate',
        title: 'Approve, take the deposit, activate',
        content:
          'A second person with approval rights approves (the maker cannot). Record the deposit, then activate: the device is assigned, the ledger is posted and OpenPAYGO units get their first unlock token. Filter the list on status to find contracts waiting for you.',
        path: '/contracts',
        target: '[data-testid="select-filter-status"]',
      },
    ],
  },
  {
    id: 'service-plans',
    name: 'Designing a service plan',
    description:
      'Frequency, terms, APR and interest method, deposit, fees and arrears rules; versions and retiring.',
    category: 'financing',
    difficulty: 'advanced',
    estimatedTime: 5,
    isNew: true,
    steps: [
      {
        id: 'new',
        title: 'A new plan',
        content:
          'Give it a code and a name, the frequency (daily, weekly or monthly), the terms customers may choose, the APR (kept under the organisation’s APR cap) and the interest method: declining balance or flat.',
        path: '/service-plans',
        target: '[data-testid="button-new-plan"]',
      },
      {
        id: 'rules',
        title: 'Deposit, fees and arrears',
        content:
          'The minimum deposit, a service fee per period, an instalment multiple, the late fee with its grace days, and after how many days overdue a device locks and a contract defaults. The preview shows the schedule these terms give.',
        path: '/service-plans',
        target: '[data-testid="button-new-plan"]',
      },
      {
        id: 'lifecycle',
        title: 'Draft, active, retired',
        content:
          'A plan is offered in the contract wizard once activated. Editing an active plan makes a new version; contracts already made keep theirs. Retire a plan to stop offering it. Filter the list by status.',
        path: '/service-plans',
        target: '[data-testid="select-filter-plan-status"]',
      },
    ],
  },
  {
    id: 'ledger',
    name: 'Reading the journal and the trial balance',
    description:
      'Every money event as a balanced journal entry, and a trial balance that always nets to zero.',
    category: 'financing',
    difficulty: 'intermediate',
    estimatedTime: 3,
    isNew: true,
    steps: [
      {
        id: 'journal',
        title: 'The journal',
        content:
          'Each activation and deposit posts a balanced entry: debits equal credits, or it is refused. Narrow the entries to a date range.',
        path: '/finance',
        target: '[data-testid="input-journal-from"]',
      },
      {
        id: 'trial-balance',
        title: 'The trial balance',
        content:
          'Balances of every account at a date. Total debits equal total credits; the status line says so.',
        path: '/finance?tab=trial-balance',
        target: '[data-testid="input-trial-balance-as-of"]',
      },
      {
        id: 'accounts',
        title: 'The chart of accounts',
        content: 'The accounts the postings use: cash, receivables, inventory, interest and fee income.',
        path: '/finance?tab=accounts',
        target: '[data-testid="panel-accounts"]',
      },
    ],
  },
  {
    id: 'finance-assistant',
    name: 'Asking the Finance AI Assistant',
    description: 'What-if questions about instalments, APR, discounts and arrears, answered by the engine.',
    category: 'ai',
    difficulty: 'beginner',
    estimatedTime: 3,
    isNew: true,
    steps: [
      {
        id: 'open',
        title: 'The robot button',
        content:
          'The round robot button in the corner of every page opens the Finance AI Assistant. It answers from your live portfolio, with the same engine that calculates the contracts.',
        path: '/',
        target: '[data-testid="button-assistant-toggle"]',
      },
      {
        id: 'ask',
        title: 'Ask in your own words',
        content:
          'Try “What if customers pay 2000 weekly instead of 1500?”, “Lower the APR to 30%” or “Give a 10% discount for 30 days”. The three quick queries fill in and send a question for you. Enter sends; Shift+Enter starts a new line.',
        path: '/',
        target: '[data-testid="button-assistant-toggle"]',
      },
      {
        id: 'read',
        title: 'Reading the answer',
        content:
          'Each answer gives a summary, how many days sooner contracts would finish, the interest saved in your currency, and a confidence: how fully your question was understood. Below 50% it lists what it can answer instead.',
        path: '/',
        target: '[data-testid="button-assistant-toggle"]',
      },
    ],
  },
];

const ADDED = '2026-11-22';

export const FEATURES: Feature[] = [
  {
    id: 'contracts',
    name: 'Contracts from draft to active',
    description:
      'A wizard with the exact schedule, approval by a second person, the deposit, activation with the first unlock token, and a key-facts PDF.',
    icon: 'FileText',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'first-contract',
  },
  {
    id: 'service-plans',
    name: 'Service plans with versions',
    description: 'Financing products with APR cap checks; contracts keep the version they were made on.',
    icon: 'SlidersHorizontal',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'service-plans',
  },
  {
    id: 'ledger',
    name: 'Double-entry ledger',
    description:
      'Every activation and deposit as a balanced journal entry, with a trial balance at any date.',
    icon: 'ScrollText',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'ledger',
  },
  {
    id: 'finance-assistant',
    name: 'Finance AI Assistant',
    description:
      'Ask what-if questions about instalments, APR, discounts and arrears; the finance engine answers from your portfolio.',
    icon: 'Bot',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'finance-assistant',
  },
  {
    id: 'notifications',
    name: 'Notifications',
    description:
      'A bell with your unread count: role changes, colleagues joining from your invites, and more as areas arrive.',
    icon: 'Bell',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'notifications',
  },
  {
    id: 'command-palette',
    name: 'Search and shortcuts',
    description: 'Ctrl+K searches every page and action; Ctrl+?, Ctrl+N and Ctrl+D are one key press away.',
    icon: 'Search',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'search-and-shortcuts',
  },
  {
    id: 'two-factor',
    name: 'Two-factor sign-in',
    description: 'Codes from an authenticator app after your password, with one-time recovery codes.',
    icon: 'ShieldCheck',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'two-factor',
  },
  {
    id: 'audit-trail',
    name: 'Audit trail',
    description:
      'Every change and sign-in, with before and after values, in a hash-chained log you can verify.',
    icon: 'ScrollText',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'audit-trail',
  },
  {
    id: 'usage',
    name: 'Usage figures',
    description: 'Visits and time spent per section and per person, for administrators.',
    icon: 'ChartColumn',
    isNew: true,
    addedDate: ADDED,
    tutorialId: 'usage',
  },
  {
    id: 'help-centre',
    name: 'Help centre and tutorials',
    description: 'Step-by-step tutorials on the real screens, with your progress saved.',
    icon: 'LifeBuoy',
    isNew: false,
    addedDate: ADDED,
    tutorialId: 'help-centre',
  },
  {
    id: 'profile',
    name: 'Profile and password',
    description: 'Your name, sign-in e-mail and password; a new password signs out your other sessions.',
    icon: 'UserRoundCog',
    isNew: false,
    addedDate: ADDED,
    tutorialId: 'your-profile',
  },
  {
    id: 'sessions',
    name: 'Signed-in sessions',
    description: 'Every browser signed in to your account, and signing the others out.',
    icon: 'MonitorSmartphone',
    isNew: false,
    addedDate: ADDED,
    tutorialId: 'sessions',
  },
  {
    id: 'preferences',
    name: 'Preferences',
    description:
      'Theme, the page you start on, and which notifications you receive, saved for every browser.',
    icon: 'SlidersHorizontal',
    isNew: false,
    addedDate: ADDED,
    tutorialId: 'preferences',
  },
  {
    id: 'organisation',
    name: 'Organisation settings',
    description: 'Currency, country, time zone, arrears buckets and quiet hours, set by administrators.',
    icon: 'Building2',
    isNew: false,
    addedDate: ADDED,
    tutorialId: 'organisation-settings',
  },
  {
    id: 'users-and-invites',
    name: 'Staff, roles and invites',
    description: 'One-time invite links with a role, role changes and deactivation, by administrators.',
    icon: 'Users',
    isNew: false,
    addedDate: ADDED,
    tutorialId: 'invites-and-roles',
  },
];
