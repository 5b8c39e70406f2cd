import { Navigate, Outlet } from 'react-router';
import { LOGIN_PATH } from '../services/navigation';
import { useSession } from '../stores/session';

/** Pages of a signed-in user: without a stored credential the visitor goes to the login page. */
export function RequireLogin() {
  const loggedIn = useSession((state) => Boolean(state.token));
  return loggedIn ? <Outlet /> : <Navigate to={LOGIN_PATH} replace />;
}
