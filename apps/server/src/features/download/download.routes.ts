import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZipFile } from 'yazl';
import { REPO_ROOT } from '../../paths.js';
import { notFound } from '../../platform/errors.js';

/** apps/ps-plugin. */
export const PS_PLUGIN_DIR = path.join(REPO_ROOT, 'apps/ps-plugin');

/** Files of the plugin folder that Photoshop does not load: docs, tests, the Node package marker, dotfiles. */
function isPackaged(relative: string, entry: Dirent): boolean {
  const name = entry.name;
  if (name.startsWith('.')) return false;
  if (entry.isDirectory()) return !['node_modules', 'test', 'tests', '__tests__'].includes(name);
  if (relative === 'package.json') return false;
  return !/\.md$/i.test(name) && !/\.(test|spec)\.[cm]?[jt]s$/i.test(name);
}

/** The plugin's files as zip paths (forward slashes, relative to the folder), sorted. */
async function pluginFiles(root: string, relative = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (!isPackaged(child, entry)) continue;
    if (entry.isDirectory()) files.push(...(await pluginFiles(root, child)));
    else if (entry.isFile()) files.push(child);
  }
  return files.sort();
}

/** The manifest's version when it is safe in a file name. */
function versionOf(manifestText: string): string {
  const version = (JSON.parse(manifestText) as { version?: unknown }).version;
  return typeof version === 'string' && /^[0-9A-Za-z.+-]{1,40}$/.test(version) ? version : 'dev';
}

/**
 * Downloads of desktop add-ons. The Photoshop plugin is the UXP folder apps/ps-plugin zipped on the fly as a
 * .ccx (a zip with manifest.json at its root), streamed file by file from disk.
 */
export const downloadRoutes: FastifyPluginAsyncZod<{ pluginDir?: string }> = async (app, options) => {
  const pluginDir = options.pluginDir ?? PS_PLUGIN_DIR;

  app.get(
    '/download/ps/plugins',
    {
      schema: {
        tags: ['下载'],
        summary: '下载 Photoshop 插件（UXP .ccx 安装包，无需登录）',
        produces: ['application/zip'],
      },
    },
    async (_req, reply) => {
      let manifest: string;
      let files: string[];
      try {
        manifest = await readFile(path.join(pluginDir, 'manifest.json'), 'utf8');
        files = await pluginFiles(pluginDir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('插件包不存在');
        throw error;
      }
      const version = versionOf(manifest);

      const zip = new ZipFile();
      for (const file of files) {
        // PNGs are compressed already; deflating them again only costs time.
        zip.addFile(path.join(pluginDir, file), file, { compress: !file.endsWith('.png') });
      }
      zip.end();
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="huafang-ps-plugin-${version}.ccx"`)
        .header('cache-control', 'no-cache')
        .send(zip.outputStream);
    },
  );
};
