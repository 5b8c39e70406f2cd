import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LOGIN_LANDING, rememberDrawTarget } from '../services/navigation';
import { useSession } from '../stores/session';

/** Pages of a signed-in user: without a stored credential the visitor goes to the login dialog on the home page. */
export function RequireLogin() {
  const loggedIn = useSession((state) => Boolean(state.token));
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!loggedIn) rememberDrawTarget(pathname, search);
  }, [loggedIn, pathname, search]);
  return loggedIn ? <Outlet /> : <Navigate to={LOGIN_LANDING} replace />;
}
