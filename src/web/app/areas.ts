import {
  Activity,
  BookOpen,
  Bot,
  Calculator,
  CalendarCheck,
  ChartColumn,
  Cog,
  Contact,
  DatabaseBackup,
  FileText,
  FlaskConical,
  Gauge,
  GraduationCap,
  HandCoins,
  KeyRound,
  Landmark,
  LayoutDashboard,
  LifeBuoy,
  Lock,
  type LucideIcon,
  MessageCircle,
  MessagesSquare,
  Plug,
  Presentation,
  Receipt,
  Repeat,
  ScrollText,
  ShieldAlert,
  ShieldCheck,
  Smartphone,
  SquarePen,
  Timer,
  TrendingUp,
  UserRound,
  UserRoundCog,
  Users,
  Wallet,
  Workflow,
} from 'lucide-react';
import type { Permission } from '@/contracts/roles';

export type AreaAccess = 'public' | 'signedIn';
export type AreaGroup = 'lending' | 'servicing' | 'oversight' | 'engagement' | 'account' | 'admin' | 'public';

export interface Area {
  title: string;
  /** One line for cards and menus. */
  summary: string;
  /** What the area does (PRODUCT.md sections 3 and 6), shown on its page. */
  description: string;
  icon: LucideIcon;
  access: AreaAccess;
  group: AreaGroup;
  /**
   * The permission its page needs beyond being signed in (src/contracts/roles.ts); the page wraps
   * its content in <RequirePermission permission={AREA.permission}>. Absent: every signed-in role.
   */
  permission?: Permission;
}

/**
 * Every route of seed section 2 except the signed-out-only ones, with its name, description and
 * icon: the single source for the router, the navigation, the dashboard links and the area pages.
 */
export const AREAS = {
  '/customer': {
    title: 'Customer portal',
    summary: 'Balance, payments and unlock codes for customers.',
    description:
      'Customers sign in with their phone number and a one-time code to see their contracts, balance, next due date, schedule, payments and receipts, pay by mobile money, get their latest unlock code and chat with support. Only ever their own data.',
    icon: UserRound,
    access: 'public',
    group: 'public',
  },
  '/investor': {
    title: 'Investor portal',
    summary: 'Aggregate portfolio performance for funders.',
    description:
      'Investors sign in with an investor code to see aggregate figures — disbursed, outstanding, collected, portfolio at risk, collection rate, yield, vintages and cash flows — and download the investor report. No customer personal data is shown.',
    icon: Landmark,
    access: 'public',
    group: 'public',
  },
  '/calculator': {
    title: 'Device calculator',
    summary: 'Instalment and total cost of financing a device.',
    description:
      'Work out the cost of financing a device: price or model, deposit, plan, frequency, term and APR give the instalment, the totals, an APR disclosure and the full payment schedule, on the same engine the contracts use.',
    icon: Calculator,
    access: 'public',
    group: 'public',
  },
  '/demo': {
    title: 'Financing demo',
    summary: 'A guided walk-through of device financing.',
    description:
      'A guided walk-through of device financing: pick a device and a plan, go through a simulated identity check and payment, and receive an unlock code.',
    icon: Presentation,
    access: 'public',
    group: 'public',
  },
  '/': {
    title: 'Dashboard',
    summary: 'Portfolio figures, trends, your tasks and insights.',
    description:
      'Key portfolio figures, trend charts from the daily snapshots, the tasks assigned to you and insights with their evidence and a link to act on them.',
    icon: LayoutDashboard,
    access: 'signedIn',
    group: 'oversight',
  },
  '/customers': {
    title: 'Customers',
    summary: 'Customer profiles and KYC documents.',
    description:
      'Customer profiles with their KYC documents: search, filter and sort across the whole book, open a profile to see its contracts, payments and contact history, and create or edit customers with a clear message for every field that needs attention.',
    icon: Users,
    access: 'signedIn',
    group: 'lending',
  },
  '/devices': {
    title: 'Devices',
    summary: 'Device inventory and what each device finances.',
    description:
      'The device inventory — phones, solar home systems, TVs and laptops — with identifiers, models, prices, stock status and the contract each financed device belongs to.',
    icon: Smartphone,
    access: 'signedIn',
    group: 'lending',
  },
  '/service-plans': {
    title: 'Service plans',
    summary: 'Deposits, frequencies, terms, APR and fees.',
    description:
      'The financing plans on offer: deposit, instalment frequency (daily, weekly or monthly), term, APR and fees, and what each plan costs the customer in total.',
    icon: ScrollText,
    access: 'signedIn',
    group: 'lending',
  },
  '/contracts': {
    title: 'Contracts',
    summary: 'Financing contracts from draft to closure.',
    description:
      'Device-financing contracts from draft to closure: schedules and totals calculated automatically, approval by a second person, balances and arrears, restructures and payoff quotes.',
    icon: FileText,
    access: 'signedIn',
    group: 'lending',
  },
  '/payment-processing': {
    title: 'Payment processing',
    summary: 'Post and import payments, suspense, reversals.',
    description:
      'Post payments, import provider statement files with a preview and per-row errors before anything is posted, work the suspense queue of unmatched payments, request reversals and issue receipts.',
    icon: Wallet,
    access: 'signedIn',
    group: 'servicing',
  },
  '/collections': {
    title: 'Collections',
    summary: 'Arrears queue, promises to pay, repossessions.',
    description:
      'The collections queue and your own queue: overdue accounts by age, logged actions and promises to pay, repossessions and collector performance.',
    icon: HandCoins,
    access: 'signedIn',
    permission: 'collections.work',
    group: 'servicing',
  },
  '/device-control': {
    title: 'Device control',
    summary: 'Lock, unlock and activation codes for the fleet.',
    description:
      'The financed fleet by lock state: lock and unlock smartphones, issue activation codes for solar kits, run bulk actions after confirmation, and follow the log of every device command.',
    icon: Lock,
    access: 'signedIn',
    group: 'servicing',
    permission: 'devices.requestLock',
  },
  '/risk': {
    title: 'Risk',
    summary: 'Scorecard, PAR, roll rates, early warnings.',
    description:
      'The application scorecard with transparent points per factor and cut-offs, portfolio at risk, roll rates, vintage curves, concentration, expected loss and an early-warning list.',
    icon: ShieldAlert,
    access: 'signedIn',
    group: 'oversight',
  },
  '/analytics': {
    title: 'Analytics',
    summary: 'Disbursements, collections, PAR and cohorts.',
    description:
      'Disbursements, collections against amounts due, the PAR trend, portfolio composition, cohorts, and performance by agent and region.',
    icon: ChartColumn,
    access: 'signedIn',
    group: 'oversight',
  },
  '/finance': {
    title: 'Finance',
    summary: 'Ledger, trial balance and reconciliation.',
    description:
      'The general ledger, trial balance and financial statements, and reconciliation of the books with payment-provider statements.',
    icon: Landmark,
    access: 'signedIn',
    group: 'oversight',
    permission: 'finance.read',
  },
  '/reports': {
    title: 'Reports',
    summary: 'Report catalogue with CSV, XLSX and PDF export.',
    description:
      'A catalogue of reports — portfolio, aging, collections, payments, contracts, customer statement, KYC, inventory, trial balance and investor report — with filters and export to CSV, XLSX and PDF.',
    icon: Receipt,
    access: 'signedIn',
    group: 'oversight',
  },
  '/scenario-analysis': {
    title: 'Scenario analysis',
    summary: 'Baseline against up to three scenarios.',
    description:
      'Compare the baseline with up to three scenarios on the portfolio or a segment (APR, payment, discount, term, default and collection stress, new volume): monthly cash flows, interest income, expected loss, IRR and NPV.',
    icon: FlaskConical,
    access: 'signedIn',
    group: 'oversight',
  },
  '/crm': {
    title: 'CRM',
    summary: 'Customers, leads, partners and tasks.',
    description:
      'Customers, leads and partners in one place: a lead pipeline from new to won or lost, a timeline of every interaction, tasks, and conversion of a lead into a customer.',
    icon: Contact,
    access: 'signedIn',
    group: 'engagement',
  },
  '/crm/contacts/:id': {
    title: 'Contact',
    summary: 'One contact and the timeline of everything about them.',
    description:
      "One contact's full record: details, the timeline of calls, messages, payments and notes, open tasks and, for a lead, its stage in the pipeline.",
    icon: Contact,
    access: 'signedIn',
    group: 'engagement',
  },
  '/communications': {
    title: 'Communications',
    summary: 'Templates, bulk sends, outbox and inbound threads.',
    description:
      'Message templates for SMS, WhatsApp and e-mail with variables and languages, single and bulk sends to customer segments, an outbox with delivery states and retries, and inbound conversation threads.',
    icon: MessagesSquare,
    access: 'signedIn',
    group: 'engagement',
    permission: 'messages.read',
  },
  '/workflows': {
    title: 'Workflows',
    summary: 'Automation rules and their run history.',
    description:
      'Automation rules started by an event or a schedule, with conditions and actions (message, task, assignment, lock or unlock, notification, webhook), switched on or off, with their run history — the built-in reminder and lock rules included.',
    icon: Workflow,
    access: 'signedIn',
    group: 'engagement',
  },
  '/ai-customer-service': {
    title: 'AI customer service',
    summary: 'Assistant conversations with customers.',
    description:
      "A customer-facing assistant for the portal chat and WhatsApp that answers from the customer's own data — balance, next due date, how to pay, payoff amount, latest unlock code — and hands over to a person when asked. Staff read and take over conversations here.",
    icon: Bot,
    access: 'signedIn',
    group: 'engagement',
    permission: 'messages.read',
  },
  '/whatsapp-test': {
    title: 'WhatsApp test',
    summary: 'Simulate an inbound WhatsApp message.',
    description:
      'Send a simulated inbound WhatsApp message from a phone number through exactly the pipeline the real webhook uses, and see the reply and the raw payloads.',
    icon: MessageCircle,
    access: 'signedIn',
    group: 'engagement',
    permission: 'messages.send',
  },
  '/profile': {
    title: 'Profile',
    summary: 'Your name, e-mail, password and two-factor sign-in.',
    description:
      'Your name and e-mail address, your password and two-factor sign-in with an authenticator app.',
    icon: UserRoundCog,
    access: 'signedIn',
    group: 'account',
  },
  '/settings': {
    title: 'Settings',
    summary: 'Your preferences and organisation settings.',
    description:
      "Your preferences and, for administrators, the organisation's settings: currency, time zone, arrears buckets and quiet hours for messages.",
    icon: Cog,
    access: 'signedIn',
    group: 'account',
  },
  '/help': {
    title: 'Help & Support',
    summary: 'Quick start, shortcuts and how to get support.',
    description:
      'A quick-start guide, keyboard shortcuts, answers to common questions and how to reach support.',
    icon: LifeBuoy,
    access: 'signedIn',
    group: 'account',
  },
  '/help-tutorial': {
    title: 'Help center',
    summary: 'Tutorials, what is new and quick help.',
    description:
      "The help centre: step-by-step tutorials by topic with your progress, what's new in the product, and quick help.",
    icon: BookOpen,
    access: 'signedIn',
    group: 'account',
  },
  '/tutorials': {
    title: 'Tutorials',
    summary: 'Guided tours of the product.',
    description:
      'Guided tutorials that walk you through the product on the real screens, grouped into basics, financing, analytics, compliance and AI, with your progress saved.',
    icon: GraduationCap,
    access: 'signedIn',
    group: 'account',
  },
  '/admin/users': {
    title: 'Users',
    summary: 'Staff accounts, roles and invitations.',
    description:
      'Invite staff with a one-time link, set their roles, deactivate and reactivate accounts, and see two-factor status and last sign-in.',
    icon: Users,
    access: 'signedIn',
    group: 'admin',
    permission: 'admin.users',
  },
  '/admin/backup': {
    title: 'Backup',
    summary: 'Backups, restore and schedule.',
    description: 'Create, list, download and restore backups, with a daily schedule and a retention period.',
    icon: DatabaseBackup,
    access: 'signedIn',
    group: 'admin',
  },
  '/admin/audit': {
    title: 'Audit trail',
    summary: 'Every change and sign-in, tamper-evident.',
    description:
      'The append-only log of every change and sign-in with before and after values, hash-chained, with an action that verifies the chain.',
    icon: Activity,
    access: 'signedIn',
    group: 'admin',
    permission: 'admin.audit',
  },
  '/admin/jobs': {
    title: 'Background jobs',
    summary: 'Scheduled and background work, its runs and failures.',
    description:
      'The background jobs (arrears figures, risk rescoring and, later, close of business and message sending) with their schedules, and their recent runs: when, on which attempt, what they did or why they failed.',
    icon: Timer,
    access: 'signedIn',
    group: 'admin',
  },
  '/admin/integrations': {
    title: 'Integrations',
    summary: 'Payment, messaging and device-lock providers.',
    description:
      'Payment, messaging, device-lock and other providers with their credentials stored encrypted and a test button for each.',
    icon: Plug,
    access: 'signedIn',
    group: 'admin',
  },
  '/admin/compliance': {
    title: 'Compliance',
    summary: 'KYC queue, consents, caps and data retention.',
    description:
      'The KYC review queue, customer consents, data retention and anonymisation, APR and fee caps, the key-facts statement of each contract and customer data export.',
    icon: ShieldCheck,
    access: 'signedIn',
    group: 'admin',
  },
  '/admin/investor-codes': {
    title: 'Investor codes',
    summary: 'Sign-in codes for the investor portal.',
    description:
      'Issue sign-in codes for the investor portal: shown once and stored hashed, with an expiry, revocable, and scoped to the whole portfolio or a tagged fund.',
    icon: KeyRound,
    access: 'signedIn',
    group: 'admin',
    permission: 'admin.users',
  },
  '/admin/demo-editor': {
    title: 'Demo editor',
    summary: 'Content of the public financing demo.',
    description: 'Edit the content of the public financing demo as a draft and publish it when it is ready.',
    icon: SquarePen,
    access: 'signedIn',
    group: 'admin',
    permission: 'admin.settings',
  },
  '/admin/treasury': {
    title: 'Treasury',
    summary: 'Cash position, inflows and funding lines.',
    description: 'The cash position, inflows expected from instalments, and funding lines.',
    icon: TrendingUp,
    access: 'signedIn',
    group: 'admin',
  },
  '/admin/executive': {
    title: 'Executive dashboard',
    summary: 'Headline portfolio figures for management.',
    description:
      'Headline figures and trends for management: disbursements, outstanding balance, collections, portfolio at risk and yield.',
    icon: Gauge,
    access: 'signedIn',
    group: 'admin',
  },
  '/admin/close-of-business': {
    title: 'Close of business',
    summary: 'The end of each business day: its steps, counts and failures.',
    description:
      'Each business date closed in order: arrears figures, late fees, device locks, defaults, promises, reminders, interest accrual and the portfolio snapshot, with what each step did and how long it took; run a close on demand or resume a failed one.',
    icon: CalendarCheck,
    access: 'signedIn',
    group: 'admin',
    permission: 'eod.run',
  },
  '/admin/auto-debit': {
    title: 'Auto-debit monitor',
    summary: 'Scheduled debits, attempts and retries.',
    description: 'Scheduled automatic debits and each attempt: successes, failures and retries.',
    icon: Repeat,
    access: 'signedIn',
    group: 'admin',
    permission: 'finance.read',
  },
} as const satisfies Record<string, Area>;

export type AreaPath = keyof typeof AREAS;

export const AREA_PATHS = Object.keys(AREAS) as AreaPath[];

export function area(path: AreaPath): Area {
  return AREAS[path];
}

/** The area whose route pattern matches a path (`:param` matches one non-empty segment). */
export function findArea(pathname: string): { path: AreaPath; area: Area } | null {
  const segments = pathname.split('/');
  for (const path of AREA_PATHS) {
    const pattern = path.split('/');
    if (pattern.length !== segments.length) continue;
    if (
      pattern.every((part, i) => (part.startsWith(':') ? (segments[i] ?? '') !== '' : part === segments[i]))
    ) {
      return { path, area: AREAS[path] };
    }
  }
  return null;
}
