import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../services.js';
import type { ModeParts } from './mode-parts.js';

/** Work a process does besides answering requests: started once, in order; closed once, in reverse order. */
export type ProcessPart = { name: string; start(): Promise<void> | void; close(): Promise<void> | void };

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** The first audit prune waits a minute: a start (or a restart loop) is not slowed by a large delete. */
const FIRST_PRUNE_MS = 60_000;
/** Pending orders are asked about at their channel every minute (lost notifications, expiry). */
const PAYMENT_SWEEP_MS = 60_000;
/** Plan credits past their validity are taken off every minute. */
const CREDIT_EXPIRY_MS = 60_000;
/** The first reconciliation of a start waits ten minutes, then one a day (for yesterday, Beijing time). */
const FIRST_RECONCILIATION_MS = 10 * 60_000;

/**
 * A task run every `intervalMs` (the first time after `firstMs`) by one process per tick (ModeParts.claimTick).
 * A failed run is logged; the next tick tries again.
 */
export function periodic(
  name: string,
  { intervalMs, firstMs = intervalMs }: { intervalMs: number; firstMs?: number },
  run: () => Promise<unknown>,
  mode: Pick<ModeParts, 'claimTick'>,
  log: FastifyBaseLogger,
): ProcessPart {
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
    mode
      .claimTick(name, intervalMs)
      .then((mine) => (mine ? run() : undefined))
      .catch((err: unknown) => log.error({ err, task: name }, 'periodic task failed'));
  };
  return {
    name,
    start() {
      timer = setTimeout(tick, firstMs);
      timer.unref();
    },
    close() {
      clearTimeout(timer);
    },
  };
}

/**
 * Everything a process runs in the background, in start order, by role:
 * - every process: the backend pool (registered backends, health checks every BACKEND_HEALTH_SECONDS; in
 *   scale-out also other processes' changes), the progress store, the interrupt channel (workers listen) and
 *   the job queue (API processes only add to it);
 * - where jobs run (the embedded process, scale-out workers): webhook deliveries, the hourly sweep of expired
 *   sessions, codes and registrations, the daily audit prune, the credit expiry every minute and, with a payment
 *   channel configured, the payment sweep every minute and the daily reconciliation; the periodic ones run in one
 *   worker per tick (settling and expiring are idempotent anyway: the order row or the user's row is locked and
 *   checked).
 */
export function processParts(
  services: Services,
  mode: ModeParts,
  config: { backendHealthMs: number },
  log: FastifyBaseLogger,
): ProcessPart[] {
  const { pool, board, interrupts, queue } = services;
  const parts: ProcessPart[] = [
    { name: 'backend pool', start: () => pool.load(), close: () => pool.close() },
    { name: 'progress store', start: () => board.start(), close: () => board.close() },
    { name: 'interrupt channel', start: () => interrupts.start(), close: () => interrupts.close() },
    { name: 'job queue', start: () => queue.start(), close: () => queue.close() },
    {
      name: 'backend health checks',
      start: () => pool.startHealthChecks(config.backendHealthMs),
      close: () => pool.stopHealthChecks(),
    },
  ];
  if (mode.role === 'api') return parts;
  return [
    ...parts,
    // Deliveries go out (and are retried) where jobs run, like the events of the jobs they report.
    {
      name: 'webhook sender',
      start: () => services.webhookSender.start(),
      close: () => services.webhookSender.close(),
    },
    periodic('expired-sweep', { intervalMs: HOUR_MS }, () => services.auth.sweepExpired(), mode, log),
    // Runs with or without a channel configured now: lots bought earlier still expire.
    periodic('credit-expiry', { intervalMs: CREDIT_EXPIRY_MS }, () => services.credits.expireDue(), mode, log),
    periodic('audit-prune', { intervalMs: DAY_MS, firstMs: FIRST_PRUNE_MS }, () => services.audit.prune(), mode, log),
    ...(services.paymentChannels.all().length === 0
      ? []
      : [
          periodic('payment-sweep', { intervalMs: PAYMENT_SWEEP_MS }, () => services.orders.sweep(), mode, log),
          periodic(
            'payment-reconciliation',
            { intervalMs: DAY_MS, firstMs: FIRST_RECONCILIATION_MS },
            () => services.orderAdmin.reconcile(),
            mode,
            log,
          ),
        ]),
  ];
}

/** Starts the parts in order; answers the function that closes them, last first (each once, however often called). */
export async function startParts(parts: ProcessPart[]): Promise<() => Promise<void>> {
  const started: ProcessPart[] = [];
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      for (const part of started.reverse()) await part.close();
    })();
    return closing;
  };
  try {
    for (const part of parts) {
      await part.start();
      started.push(part);
    }
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
  return close;
}
