import type { CurrentUser } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryClient } from '../../query-client';
import { fetchCurrentUser, userKeys, userQueries } from '../../services/user';
import { useSession } from '../../stores/session';

/** Fetches the current user now (after login, invite, profile edits) and stores it as getUserData. */
export async function loadCurrentUser(): Promise<CurrentUser> {
  const { token } = useSession.getState();
  const user = await queryClient.fetchQuery({
    queryKey: userKeys.current(token),
    queryFn: fetchCurrentUser,
    staleTime: 0,
  });
  useSession.getState().setUserData(user);
  return user;
}

/**
 * Keeps getUserData fresh for a stored session, and shows the blank first-load screen only when there is a
 * credential but no stored user to draw the header with.
 */
export function useCurrentUserSync(): void {
  const token = useSession((state) => state.token);
  const setUserData = useSession((state) => state.setUserData);
  const setInitialLoading = useSession((state) => state.setInitialLoading);
  const firstLoad = useRef(Boolean(useSession.getState().token) && useSession.getState().userData === null);
  const query = useQuery(userQueries.current(token));

  useEffect(() => {
    if (query.data) setUserData(query.data);
  }, [query.data, setUserData]);

  const pending = query.isPending && query.fetchStatus !== 'idle';
  useEffect(() => {
    setInitialLoading(firstLoad.current && pending);
    if (!pending) firstLoad.current = false;
  }, [pending, setInitialLoading]);
}
