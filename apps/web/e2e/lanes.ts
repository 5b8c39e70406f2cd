import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import buildServer from '../../server/test/helpers/build-server';
import { type ServerAddress, startServer, type TestServer } from './server';

/**
 * A lane: one server and one browser that the journey files of one vitest worker share, one file after another.
 * Each file registers its own users and makes its own data, so it does not care what the files before it left; a
 * file that changes what every user sees (settings, the task tree, backends) starts a server of its own instead
 * (`setupJourney({ ownServer: true })`) but still borrows the lane's browser.
 */
export interface Lane {
  server: ServerAddress;
  /** Where `chromium.connect` reaches the lane's browser. */
  browserEndpoint: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2eLanes: Lane[];
  }
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/**
 * What a lane's server allows where per-address limits would count every journey of the lane as one visitor
 * (all come from 127.0.0.1): the limits themselves are proven by the server suites and by the journey that spends
 * the 获取验证码 allowance on a server of its own.
 */
export const LANE_SERVER_ENV = {
  RATE_LIMIT_LOGIN: '1000',
  RATE_LIMIT_SEND_CODE: '1000',
  RATE_LIMIT_SIGN_UP: '1000',
};

/** Global setup of the e2e project: builds the server once, then starts one lane per worker. */
export default async function startLanes(project: TestProject): Promise<() => Promise<void>> {
  buildServer();
  const workers = project.config.maxWorkers;
  const count = typeof workers === 'number' && workers > 0 ? workers : 2;
  const servers: TestServer[] = [];
  const browsers: Awaited<ReturnType<typeof chromium.launchServer>>[] = [];
  const stop = async () => {
    await Promise.all(browsers.map((browser) => browser.close()));
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    const lanes = await Promise.all(
      Array.from({ length: count }, async (): Promise<Lane> => {
        const server = await startServer(LANE_SERVER_ENV);
        servers.push(server);
        const browser = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
        browsers.push(browser);
        return { server: { baseUrl: server.baseUrl, logFile: server.logFile }, browserEndpoint: browser.wsEndpoint() };
      }),
    );
    project.provide('e2eLanes', lanes);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
