/**
 * Which credits a change moves, when some of a user's credits expire. Credits come in lots (one per paid order with a
 * validity) plus permanent credits, which are whatever the balance holds beyond the lots.
 */

/** Credits of one lot, or of the permanent credits when `lotId` is null. */
export type Portion = { lotId: string | null; amount: number };

/** A lot as spending sees it. */
export type SpendableLot = { id: string; remaining: number; expiresAt: string };

/** A portion a charge took, with when its lot expires (null: permanent credits). */
export type Drawn = Portion & { expiresAt: string | null };

/**
 * Takes `amount` from the lots expiring soonest first and from permanent credits last, so a user loses as little as
 * possible to expiry. The caller has checked the balance covers `amount`.
 */
export function spend(lots: readonly SpendableLot[], amount: number): Portion[] {
  const portions: Portion[] = [];
  let left = amount;
  const soonestFirst = [...lots].sort((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.id.localeCompare(b.id));
  for (const lot of soonestFirst) {
    if (left <= 0) break;
    const taken = Math.min(lot.remaining, left);
    if (taken <= 0) continue;
    portions.push({ lotId: lot.id, amount: taken });
    left -= taken;
  }
  if (left > 0) portions.push({ lotId: null, amount: left });
  return portions;
}

/**
 * Gives `amount` back where a charge took it, undoing it from its last portion: permanent credits first, then the lots
 * expiring latest. A refund thus returns the longest-lived credits the charge used, and never turns expiring credits
 * into permanent ones. `beyond`: what exceeds everything drawn (none in practice), for permanent credits.
 */
export function giveBack<T extends Drawn>(
  drawn: readonly T[],
  amount: number,
): { back: { draw: T; amount: number }[]; beyond: number } {
  const back: { draw: T; amount: number }[] = [];
  let left = amount;
  const latestFirst = [...drawn].sort((a, b) => {
    if (a.expiresAt === b.expiresAt) return 0;
    if (a.expiresAt === null) return -1;
    if (b.expiresAt === null) return 1;
    return b.expiresAt.localeCompare(a.expiresAt);
  });
  for (const draw of latestFirst) {
    if (left <= 0) break;
    const given = Math.min(draw.amount, left);
    if (given <= 0) continue;
    back.push({ draw, amount: given });
    left -= given;
  }
  return { back, beyond: left };
}
