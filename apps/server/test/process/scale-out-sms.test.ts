import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ScaleOutCluster } from '../helpers/scale-out-cluster.js';
import { postgresReachable, redisReachable, redisUrl, requireServices } from '../helpers/services.js';

const problem = (await postgresReachable()) ?? (await redisReachable());
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-process] SKIPPED scale-out SMS: ${problem}. Start PostgreSQL and Redis to run it.`);
}

const MOBILES = 5;
const SENDS_PER_MOBILE = 30;

describe.skipIf(problem !== null)('scale-out processes: SMS codes over 2 API processes', () => {
  let cluster: ScaleOutCluster;

  beforeAll(async () => {
    // The per-address limit is the outer fence; here every request comes from one address and must reach the
    // per-mobile rule.
    cluster = await ScaleOutCluster.start({ redisUrl, workers: 0, env: { RATE_LIMIT_SEND_CODE: '1000' } });
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('30 parallel sends per mobile, split over both API processes, send exactly one SMS to each mobile', async () => {
    onTestFailed(() => console.log(cluster.logs()));
    // Mobiles of this run only (the database is fresh, the pid keeps the log lines apart from any other run's).
    const mobiles = Array.from({ length: MOBILES }, (_, i) => `137${`${process.pid % 100000}`.padStart(5, '0')}00${i}`);

    const answers = await Promise.all(
      mobiles.flatMap((mobile) =>
        Array.from({ length: SENDS_PER_MOBILE }, (_, i) =>
          cluster.apis[i % 2]!.call('POST', '/api/auth/sendCode', { body: { mobile } }).then((answer) => ({
            mobile,
            answer,
          })),
        ),
      ),
    );

    for (const mobile of mobiles) {
      const sent = cluster.apis.flatMap((api) =>
        api.output.split('\n').filter((line) => line.includes(`SMS code for ${mobile}:`)),
      );
      expect(sent, mobile).toHaveLength(1);
      const ofMobile = answers.filter((a) => a.mobile === mobile).map((a) => a.answer);
      expect(ofMobile.filter((a) => a.body.code === 0)).toHaveLength(1);
      for (const refused of ofMobile.filter((a) => a.body.code !== 0)) {
        expect(refused.status).toBe(429);
        expect(refused.body.msg).toMatch(/^验证码发送过于频繁，请 \d+ 秒后再试$/);
      }
    }
  });
});
