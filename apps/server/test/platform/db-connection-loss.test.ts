import { expect, it } from 'vitest';
import { readWhile, terminateConnections } from '../helpers/connection-killer.js';
import { describeServer } from '../helpers/suite.js';
import { useTestApp } from '../helpers/use-test-app.js';

const LOST = { code: -1, msg: '数据库连接中断，请稍后重试', data: null };

/** SQLite is a file in this process with no server connection to lose: vitest.config.ts runs this file on PostgreSQL only. */
describeServer('db: PostgreSQL connections ended under load', () => {
  const ctx = useTestApp();

  const readGallery = () => ctx.app.call('GET', '/api/works/public/list?current=1&pageSize=10');

  it('answers every reader with the gallery or a clean 503, and keeps serving afterwards', async () => {
    const config = ctx.app.config.database;
    if (config.kind !== 'postgres') throw new Error('this suite runs on PostgreSQL');
    const database = new URL(config.url).pathname.slice(1);

    const killing = terminateConnections(database, 6, 600);
    const answers = await readWhile(20, readGallery, killing);

    expect(await killing).toBeGreaterThan(0);
    const lost = answers.filter((a) => a.body.code !== 0);
    for (const answer of lost) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual(LOST);
    }
    expect(answers.length - lost.length).toBeGreaterThan(0);
    const logged = ctx.app.logLines.filter((line) => line.includes('database connection lost'));
    expect(logged.length).toBeGreaterThanOrEqual(lost.length);
    const after = await readGallery();
    expect(after.body.code).toBe(0);
  });
});
