import { Outlet } from 'react-router';
import { type AccessName, useAccess } from '../access';
import { ForbiddenResult } from './ForbiddenResult';

/** Route guard by a named access flag (spec §6); refused visitors see the 403 page, not the content. */
export function RequireAccess({ access }: { access: AccessName }) {
  const granted = useAccess()[access];
  return granted ? <Outlet /> : <ForbiddenResult />;
}
