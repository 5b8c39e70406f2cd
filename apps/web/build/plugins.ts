import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of the build, at the strongest settings, for
 * @fastify/static's `preCompressed` to send by Accept-Encoding. index.html gets none: the server adds a fresh
 * nonce to it on every answer and compresses that answer itself.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'huafang-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = readFileSync(file);
        const br = brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
        const gz = gzipSync(body, { level: 9 });
        // A tiny file can come out larger; the server then sends the original.
        if (br.length < body.length) writeFileSync(`${file}.br`, br);
        if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

const FORM_CONTEXT = 'node_modules/antd/es/form/context.js';
const FULL_FORM_IMPORT = "import { FormProvider as RcFormProvider } from '@rc-component/form';";

/**
 * antd's form context (which Modal, Input and Button import) takes FormProvider from @rc-component/form's index,
 * whose top-level statics pull the whole form engine and its validator into every page, forms or not. The provider
 * lives in the package's FormContext module: importing it from there keeps ~40 KB of minified code out of the
 * first load. The build fails if antd changes that line, so an upgrade cannot undo this silently.
 */
export function lighterAntdForms(): Plugin {
  return {
    name: 'huafang-lighter-antd-forms',
    apply: 'build',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith(FORM_CONTEXT)) return null;
      if (!code.includes(FULL_FORM_IMPORT)) {
        this.error(`${FORM_CONTEXT} no longer imports FormProvider as expected; update build/plugins.ts`);
      }
      return {
        code: code.replace(
          FULL_FORM_IMPORT,
          "import { FormProvider as RcFormProvider } from '@rc-component/form/es/FormContext';",
        ),
        map: null,
      };
    },
  };
}
