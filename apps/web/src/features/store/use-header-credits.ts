import { useEffect } from 'react';
import { useSession } from '../../stores/session';

/** A live balance the page was given (the store, a paid order): the header badge follows it, so both say the same. */
export function useHeaderCreditsSync(credits: number | undefined) {
  useEffect(() => {
    const { userData, setUserData } = useSession.getState();
    if (credits !== undefined && userData && userData.credits !== credits) setUserData({ ...userData, credits });
  }, [credits]);
}
