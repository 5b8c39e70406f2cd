import { useSession } from './stores/session';

/** Named permission booleans (spec §6); routes and menus ask for these, never for isAdmin directly. */
export interface Access {
  canReadDashboard: boolean;
  canReadFoo: boolean;
  canUpdateFoo: boolean;
}

export type AccessName = keyof Access;

export function computeAccess(isAdmin: string | null | undefined): Access {
  return {
    canReadDashboard: isAdmin === 'true',
    canReadFoo: false,
    canUpdateFoo: true,
  };
}

export function useAccess(): Access {
  const isAdmin = useSession((state) => state.isAdmin);
  return computeAccess(isAdmin);
}
