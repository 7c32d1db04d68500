import { type ComponentType, lazy } from 'react';
import type { AreaPath } from './areas';

/**
 * The signed-in pages that are built (shell services and the lending areas), loaded on demand.
 * signed-in-app.tsx routes each path here to its page instead of the area placeholder.
 */
export const SERVICE_PAGES: Partial<Record<AreaPath, ComponentType>> = {
  '/profile': lazy(() => import('@/web/pages/profile')),
  '/settings': lazy(() => import('@/web/pages/settings')),
  '/admin/audit': lazy(() => import('@/web/pages/admin-audit')),
  '/admin/jobs': lazy(() => import('@/web/pages/admin-jobs')),
  '/admin/close-of-business': lazy(() => import('@/web/pages/admin-close-of-business')),
  '/help': lazy(() => import('@/web/pages/help')),
  '/help-tutorial': lazy(() => import('@/web/pages/help-tutorial')),
  '/tutorials': lazy(() => import('@/web/pages/tutorials')),
  '/customers': lazy(() => import('@/web/pages/customers')),
  '/devices': lazy(() => import('@/web/pages/devices')),
  '/service-plans': lazy(() => import('@/web/pages/service-plans')),
  '/contracts': lazy(() => import('@/web/pages/contracts')),
  '/finance': lazy(() => import('@/web/pages/finance')),
  '/admin/auto-debit': lazy(() => import('@/web/pages/admin-auto-debit')),
  '/payment-processing': lazy(() => import('@/web/pages/payment-processing')),
  '/device-control': lazy(() => import('@/web/pages/device-control')),
  '/collections': lazy(() => import('@/web/pages/collections')),
  '/communications': lazy(() => import('@/web/pages/communications')),
  '/ai-customer-service': lazy(() => import('@/web/pages/ai-customer-service')),
  '/whatsapp-test': lazy(() => import('@/web/pages/whatsapp-test')),
  '/admin/investor-codes': lazy(() => import('@/web/pages/admin-investor-codes')),
  '/admin/demo-editor': lazy(() => import('@/web/pages/admin-demo-editor')),
};

/**
 * Pages below an area (new and detail pages), matched before the area pages. Order matters:
 * fixed segments such as `/new` come before `/:id`.
 */
export const DETAIL_PAGES: ReadonlyArray<readonly [string, ComponentType]> = [
  ['/customers/new', lazy(() => import('@/web/pages/customer-new'))],
  ['/customers/:id', lazy(() => import('@/web/pages/customer-detail'))],
  ['/devices/:id', lazy(() => import('@/web/pages/device-detail'))],
  ['/service-plans/:id', lazy(() => import('@/web/pages/service-plan-detail'))],
  ['/contracts/new', lazy(() => import('@/web/pages/contract-new'))],
  ['/contracts/:id', lazy(() => import('@/web/pages/contract-detail'))],
  ['/payment-processing/receipts/:id', lazy(() => import('@/web/pages/payment-receipt'))],
];
