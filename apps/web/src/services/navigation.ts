/**
 * Lets non-React code (the request layer's 401 handling) navigate through the router without importing it,
 * which would create an import cycle router → pages → services → router.
 */
let navigator: ((to: string) => void) | null = null;

export function bindNavigator(fn: (to: string) => void): void {
  navigator = fn;
}

export function navigateTo(to: string): void {
  if (navigator) navigator(to);
  else window.location.assign(to);
}

/** Spec §4: a rejected session and a logout both land here, which opens the login dialog on /. */
export const LOGIN_PATH = '/login';

/** `/login` redirects to `/` with this query flag, which makes the home page open the login dialog. */
export const OPEN_LOGIN_PARAM = 'login';
export const LOGIN_LANDING = `/?${OPEN_LOGIN_PARAM}=1`;
