/**
 * The sign-in paths the web's request layer needs before any schema is loaded: kept free of zod
 * so the first load of a public page (the customer portal's budget is 120 KB) does not carry it.
 * `authEndpoints` (auth.ts) describes the same paths with their schemas.
 */
export const AUTH_PATHS = {
  csrfToken: '/api/csrf-token',
  login: '/api/login',
  adminLogin: '/api/admin-login',
  register: '/api/register',
  logout: '/api/logout',
  user: '/api/user',
} as const;

/**
 * Calls after which another session is in force (staff, customer or investor): the server renews
 * the CSRF cookie, so the web drops its cached token.
 */
export const SESSION_CHANGE_PATHS: readonly string[] = [
  AUTH_PATHS.login,
  AUTH_PATHS.adminLogin,
  AUTH_PATHS.register,
  AUTH_PATHS.logout,
  '/api/portal/login',
  '/api/portal/logout',
  '/api/investor/login',
  '/api/investor/logout',
];
