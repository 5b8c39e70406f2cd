import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { type StoredWorkFiles, storeWorkFiles } from '../src/features/works/work-files.js';
import { newId } from '../src/platform/ids.js';
import { createTestApp, registerUser, TEST_DB } from '../test/helpers/test-app.js';

/**
 * Figures for the galleries, printed, never asserted (run with TEST_DB=sqlite or TEST_DB=postgres):
 * `works/profile` page latency with 10,000 works for one user among 100,000, and download-zip throughput for 100 works.
 */
const TOTAL = 100_000;
/** Every tenth work is the measured user's: 10,000 of 100,000. */
const USERS = 10;
const ROUNDS = 200;
const BATCH = 500;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

const app = await createTestApp();
try {
  const me = await registerUser(app);
  const owners = [me.userId, ...Array.from({ length: USERS - 1 }, () => newId())];

  // 100 real originals (noise PNGs of 512×512, about what a generation stores) for the zip; rows share them.
  const files: StoredWorkFiles[] = [];
  for (let i = 0; i < 100; i++) {
    const raw = randomBytes(512 * 512 * 3);
    const png = await sharp(raw, { raw: { width: 512, height: 512, channels: 3 } })
      .png()
      .toBuffer();
    files.push(await storeWorkFiles(app.services.storage, newId(), png));
  }
  const started = Date.now() - TOTAL * 1000;
  let inserted = 0;
  while (inserted < TOTAL) {
    const rows = Array.from({ length: Math.min(BATCH, TOTAL - inserted) }, (_, k) => {
      const n = inserted + k;
      const owner = n % USERS === 0 ? me.userId : owners[1 + (n % (USERS - 1))]!;
      const file = files[n % files.length]!;
      return {
        id: newId(),
        user_id: owner,
        generation_id: newId(),
        job_id: newId(),
        template_id: null,
        template_name: n % 3 === 0 ? '水墨山水' : '自由创作',
        template_step_id: null,
        step_index: 0,
        mode: 'txt2img',
        prompt: `prompt ${n % 997} mountain river`,
        negative_prompt: '',
        prompt_group: '[]',
        negative_prompt_group: '[]',
        parameters: '{}',
        seed: n,
        width: 512,
        height: 512,
        backend: '内置演示引擎',
        image_key: file.imageKey,
        thumb_key: file.thumbKey,
        created_at: new Date(started + n * 1000).toISOString(),
      };
    });
    await app.db.insertInto('works').values(rows).execute();
    inserted += rows.length;
  }
  const mine = await app.call('GET', '/api/works/profile?pageSize=1', { token: me.token });
  console.log(
    `works/profile on ${TEST_DB}: ${mine.body.data.total} works of the user among ${TOTAL}, ${ROUNDS} requests each`,
  );

  for (const [label, query] of [
    ['page 1, 20 per page', '?current=1&pageSize=20'],
    ['page 250, 40 per page', '?current=250&pageSize=40'],
    ['keyword filter', `?keyword=${encodeURIComponent('prompt 42 ')}&pageSize=20`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      const res = await app.app.inject({
        method: 'GET',
        url: `/api/works/profile${query}`,
        headers: { authorization: `Bearer ${me.token}` },
      });
      times.push(performance.now() - start);
      if (res.statusCode !== 200) throw new Error(res.body);
    }
    console.log(
      `  ${label}: median ${percentile(times, 0.5).toFixed(1)} ms · p99 ${percentile(times, 0.99).toFixed(1)} ms`,
    );
  }

  // The zip of the 100 works that own real files, through a real socket so the stream is measured end to end.
  const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
  const zipIds = (
    await app.db.selectFrom('works').select('id').where('user_id', '=', me.userId).limit(100).execute()
  ).map((row) => row.id);
  const runs: { mb: number; seconds: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const res = await fetch(`${address}/api/files/downloadZip?ids=${zipIds.join(',')}`, {
      headers: { authorization: `Bearer ${me.token}` },
    });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
    runs.push({ mb: bytes / 1024 / 1024, seconds: (performance.now() - start) / 1000 });
  }
  const best = runs.sort((a, b) => a.seconds - b.seconds)[1]!;
  console.log(
    `download-zip of 100 works (512×512 noise PNGs): ${best.mb.toFixed(1)} MB in ` +
      `${(best.seconds * 1000).toFixed(0)} ms (median of 3) → ${(best.mb / best.seconds).toFixed(0)} MB/s`,
  );
} finally {
  await app.close();
}
