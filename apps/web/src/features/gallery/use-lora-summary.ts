import { useQuery } from '@tanstack/react-query';
import { loraQueries } from '../../services/lora';
import { useSession } from '../../stores/session';
import { loraSummary } from '../draw/lora/lora-picks';

/**
 * A work's LoRAs named from the list /draw's picker reads (水墨山水 0.8、霓虹 0.6). That list needs login, so a
 * guest sees none; null when the work used none.
 */
export function useLoraSummary(loras: unknown): string | null {
  const loggedIn = useSession((state) => Boolean(state.token));
  const used = Array.isArray(loras) && loras.length > 0;
  const styles = useQuery({ ...loraQueries.styles(), enabled: loggedIn && used });
  return used ? loraSummary(loras, styles.data) : null;
}
