import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { rememberVisit } from '../features/account/require-login';
import { LOGIN_LANDING } from '../services/navigation';
import { useSignedInFrame } from '../ssr/signed-in-frame';
import { useSession } from '../stores/session';

/**
 * Pages of a signed-in user: without a stored credential the visitor goes to the login dialog on the home page,
 * and login brings them back to the address they opened (a shared link, the Photoshop plugin's /draw?initImage=).
 */
export function RequireLogin() {
  const frame = useSignedInFrame();
  const loggedIn = useSession((state) => Boolean(state.token)) || frame;
  const { pathname, search } = useLocation();
  useEffect(() => {
    // Only an address opened as a guest: a logout or an expired session on this page is no wish to come back.
    if (!useSession.getState().token) rememberVisit(`${pathname}${search}`);
  }, [pathname, search]);
  return loggedIn ? <Outlet /> : <Navigate to={LOGIN_LANDING} replace />;
}
