import type { FastifyBaseLogger } from 'fastify';
import { describeError } from '../sms/sms-provider.js';

/**
 * A content-safety service behind one interface (docs/compliance.md § 内容审核): the text and image checks that
 * run before a work reaches the public gallery. `none` (the default) passes everything without a call; `tencent`
 * asks Tencent Cloud TMS / IMS; `aliyun` asks Aliyun 内容安全增强版.
 */

/** pass: nothing found; review: a person should look; block: the provider says it must not be shown. */
export type ModerationDecision = 'pass' | 'review' | 'block';

export type ModerationVerdict = {
  decision: ModerationDecision;
  /** The reason in Chinese (色情, 涉政, 广告…), what the author and the admin queue show; 正常 on pass. */
  label: string;
  /** The provider's code of that reason (Porn, Ad…), kept with a flag. */
  code: string;
  /** The provider's own words for the admin: its label, sub-label, score and keywords (Porn/SexualBehavior 98). */
  detail: string;
};

export interface ModerationProvider {
  /** The provider's name for logs and the queue (none, tencent, aliyun). */
  readonly name: string;
  /** False for `none`: nothing is checked and no call is made. */
  readonly enabled: boolean;
  /** `dataId` names the work in the provider's records (letters, digits, _ - @ #, at most 64). */
  checkText(text: string, dataId: string): Promise<ModerationVerdict>;
  /**
   * `image` is the picture itself (Tencent sends it inline); `imageUrl` gives a fresh signed, expiring absolute
   * link to the same work's original on the public site, for a provider that fetches images itself (Aliyun).
   */
  checkImage(image: Buffer, dataId: string, imageUrl: () => string): Promise<ModerationVerdict>;
}

/** Why a check gave no verdict: the provider did not answer in time, or answered with an error. */
export type ModerationFailure = 'timeout' | 'failed';

/** A check that gave no verdict; the provider already logged the details. Publication fails closed on it. */
export class ModerationUnavailableError extends Error {
  constructor(readonly failure: ModerationFailure) {
    super(`Moderation unavailable: ${failure}`);
    this.name = 'ModerationUnavailableError';
  }
}

/** One call to a provider, as its log line names it. */
export type ProviderCall = { provider: string; action: string; dataId: string };

/**
 * Runs one provider call under the deadline (`timeoutMs`, then `deadline` aborts). Any failure is logged with the
 * provider's code (its error Code, else the HTTP status `httpStatusOf` reads from the error, else a timeout or a
 * failed request) and becomes ModerationUnavailableError; the secret keys never reach the log.
 */
export async function checkWithin(
  log: FastifyBaseLogger,
  call: ProviderCall,
  timeoutMs: number,
  check: (deadline: AbortSignal) => Promise<ModerationVerdict>,
  httpStatusOf: (err: unknown) => number | undefined,
): Promise<ModerationVerdict> {
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, timeoutMs);
  try {
    return await check(deadline.signal);
  } catch (err) {
    const failure: ModerationFailure = timedOut ? 'timeout' : 'failed';
    const { code, text } = describeError(err);
    const status = httpStatusOf(err);
    log.error(
      {
        ...call,
        failure,
        providerCode: code ?? (status ? `HTTP ${status}` : timedOut ? 'Timeout' : 'RequestFailed'),
        detail: text.slice(0, 500),
      },
      'content moderation gave no verdict',
    );
    throw new ModerationUnavailableError(failure);
  } finally {
    clearTimeout(timer);
  }
}

const PASS: ModerationVerdict = { decision: 'pass', label: '正常', code: '', detail: '' };

/** MODERATION_PROVIDER=none: moderation is off, every check passes without a call. */
export class NoModerationProvider implements ModerationProvider {
  readonly name = 'none';
  readonly enabled = false;

  async checkText(): Promise<ModerationVerdict> {
    return PASS;
  }

  async checkImage(): Promise<ModerationVerdict> {
    return PASS;
  }
}
