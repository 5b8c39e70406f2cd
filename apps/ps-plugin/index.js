'use strict';
/**
 * The 画坊 panel: log in to a 画坊 server, list the user's recent works, place one into the open document
 * as a layer, and send the active document to the web draw page as its init image.
 * Runs in Photoshop's UXP runtime (manifest v5, PS 23.3+); the HTTP calls live in api-client.js.
 */
const { app, action, core } = require('photoshop');
const { storage, shell } = require('uxp');
const { DEFAULT_SERVER, createClient, normalizeServer } = require('./api-client.js');

const lfs = storage.localFileSystem;
const formats = storage.formats;

const KEYS = { server: 'huafang.server', account: 'huafang.account', token: 'huafang.token' };
const PAGE_SIZE = 20;

/** @param {string} id */
const $ = (id) => /** @type {any} */ (document.getElementById(id));

const ui = {
  server: $('server'),
  account: $('account'),
  password: $('password'),
  login: $('login'),
  logout: $('logout'),
  loginForm: $('login-form'),
  session: $('session'),
  who: $('who'),
  send: $('send'),
  status: $('status'),
  worksSection: $('works-section'),
  works: $('works'),
  worksEmpty: $('works-empty'),
  refresh: $('refresh'),
};

/** @type {ReturnType<typeof createClient>} */
let client = createClient({
  server: localStorage.getItem(KEYS.server) || DEFAULT_SERVER,
  token: localStorage.getItem(KEYS.token),
});
let busy = false;

/**
 * @param {string} text
 * @param {boolean} [isError]
 */
function setStatus(text, isError = false) {
  ui.status.textContent = text;
  ui.status.className = isError ? 'error' : '';
}

/** @param {unknown} error */
function showError(error) {
  setStatus(error instanceof Error ? error.message : String(error), true);
  if (!client.token) showLoggedOut();
}

/** @param {boolean} value */
function setBusy(value) {
  busy = value;
  for (const button of [ui.login, ui.send, ui.refresh, ...ui.works.querySelectorAll('sp-button')]) {
    if (value) button.setAttribute('disabled', '');
    else button.removeAttribute('disabled');
  }
}

/**
 * Runs one user action at a time, showing its failure in the status line.
 * @param {() => Promise<void>} task
 */
async function run(task) {
  if (busy) return;
  setBusy(true);
  try {
    await task();
  } catch (error) {
    showError(error);
  } finally {
    setBusy(false);
  }
}

function showLoggedOut() {
  localStorage.removeItem(KEYS.token);
  ui.loginForm.classList.remove('hidden');
  ui.session.classList.add('hidden');
  ui.worksSection.classList.add('hidden');
  ui.works.innerHTML = '';
}

function showLoggedIn() {
  ui.loginForm.classList.add('hidden');
  ui.session.classList.remove('hidden');
  ui.worksSection.classList.remove('hidden');
  const account = localStorage.getItem(KEYS.account) || '';
  ui.who.textContent = `已登录 ${account}（${client.server}）`;
}

/** A client for the server typed in the field, keeping the token only when the server did not change. */
function clientForField() {
  const server = normalizeServer(ui.server.value);
  if (server !== client.server) {
    client = createClient({ server });
    localStorage.setItem(KEYS.server, server);
    localStorage.removeItem(KEYS.token);
  }
  ui.server.value = server;
  return client;
}

async function login() {
  const account = String(ui.account.value || '').trim();
  const password = String(ui.password.value || '');
  const current = clientForField();
  setStatus('正在登录…');
  const token = await current.login(account, password);
  localStorage.setItem(KEYS.account, account);
  localStorage.setItem(KEYS.token, token);
  ui.password.value = '';
  showLoggedIn();
  await loadWorks();
}

/** @param {string} iso */
function formatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

async function loadWorks() {
  setStatus('正在读取我的作品…');
  const page = await client.recentWorks(PAGE_SIZE);
  ui.works.innerHTML = '';
  for (const work of page.list) ui.works.appendChild(renderWork(work));
  ui.worksEmpty.classList.toggle('hidden', page.list.length > 0);
  setStatus(page.total > page.list.length ? `最近 ${page.list.length} 张，共 ${page.total} 张作品` : '');
}

/**
 * One row of 我的作品: thumbnail, name and time, and 置入.
 * @param {import('./api-client.js').Work} work
 */
function renderWork(work) {
  const row = document.createElement('div');
  row.className = 'work';

  const img = document.createElement('img');
  // The thumbnail is WebP; older UXP versions cannot show it, so fall back to the PNG original once.
  img.addEventListener('error', () => {
    if (img.src !== work.url) img.src = work.url;
  });
  img.src = work.thumbUrl;
  row.appendChild(img);

  const meta = document.createElement('div');
  meta.className = 'meta';
  const name = document.createElement('sp-body');
  name.setAttribute('size', 'S');
  name.textContent = work.templateName || '作品';
  const detail = document.createElement('sp-detail');
  detail.textContent = `${work.width}×${work.height}  ${formatTime(work.createdAt)}`;
  meta.appendChild(name);
  meta.appendChild(detail);
  row.appendChild(meta);

  const place = document.createElement('sp-button');
  place.setAttribute('variant', 'secondary');
  place.setAttribute('size', 's');
  place.textContent = '置入';
  place.addEventListener('click', () => run(() => placeWork(work)));
  row.appendChild(place);
  return row;
}

/**
 * Downloads a work's PNG into the plugin's temporary folder and places it into the active document as a
 * new layer; with no document open, opens it as a new document.
 * @param {import('./api-client.js').Work} work
 */
async function placeWork(work) {
  setStatus('正在下载作品…');
  const bytes = await client.downloadImage(work.url);
  const folder = await lfs.getTemporaryFolder();
  const file = await folder.createFile(`huafang-${work.id}.png`, { overwrite: true });
  await file.write(bytes, { format: formats.binary });
  setStatus('正在置入…');
  await core.executeAsModal(
    async () => {
      if (app.documents.length === 0) {
        await app.open(file);
        return;
      }
      const token = lfs.createSessionToken(file);
      await action.batchPlay(
        [
          {
            _obj: 'placeEvent',
            null: { _path: token, _kind: 'local' },
            freeTransformCenterState: { _enum: 'quadCenterState', _value: 'QCSAverage' },
            offset: {
              _obj: 'offset',
              horizontal: { _unit: 'pixelsUnit', _value: 0 },
              vertical: { _unit: 'pixelsUnit', _value: 0 },
            },
            _options: { dialogOptions: 'dontDisplay' },
          },
        ],
        {},
      );
    },
    { commandName: '置入画坊作品' },
  );
  setStatus('已置入为新图层');
}

/**
 * Exports the active document as PNG (a copy; the document itself is untouched), uploads it, and opens the
 * draw page of the web app with it as the init image: <server>/draw?initImage=<fileId>.
 */
async function sendActiveDocument() {
  if (app.documents.length === 0) throw new Error('请先在 Photoshop 中打开一个文档');
  setStatus('正在导出当前文档…');
  const folder = await lfs.getTemporaryFolder();
  const file = await folder.createFile('huafang-send.png', { overwrite: true });
  await core.executeAsModal(
    async () => {
      await app.activeDocument.saveAs.png(file, { compression: 6 }, true);
    },
    { commandName: '导出文档到画坊' },
  );
  const bytes = await file.read({ format: formats.binary });
  setStatus('正在上传到画坊…');
  const handOff = await client.sendToDraw(bytes);
  await shell.openExternal(handOff.url, '在浏览器中打开画坊绘图页，以当前文档作为参考图');
  setStatus('已发送，请在浏览器中继续绘图');
}

ui.server.value = client.server;
ui.account.value = localStorage.getItem(KEYS.account) || '';
ui.login.addEventListener('click', () => run(login));
ui.password.addEventListener('keydown', (/** @type {KeyboardEvent} */ event) => {
  if (event.key === 'Enter') run(login);
});
ui.logout.addEventListener('click', () => {
  client.logout();
  showLoggedOut();
  setStatus('已退出登录');
});
ui.refresh.addEventListener('click', () => run(loadWorks));
ui.send.addEventListener('click', () => run(sendActiveDocument));

if (client.token) {
  showLoggedIn();
  run(loadWorks);
} else {
  showLoggedOut();
}
