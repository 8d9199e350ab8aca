'use strict';
// Jest on Node 20 cannot require() ES modules, and the Nest 12 packages ship only as ESM.
// This transformer compiles our TypeScript and those packages' JavaScript to CommonJS with
// TypeScript's transpiler (no type checking: `npm run typecheck` does that).
const crypto = require('node:crypto');
const fs = require('node:fs');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  sourceMap: false,
  inlineSourceMap: true,
  inlineSources: true,
  allowJs: true,
};
const importMetaUrl = /\bimport\.meta\.url\b/g;
// ESM files that build their own `require` would redeclare CommonJS's; the module's own one serves.
const ownRequire = /^\s*const require = createRequire\(import\.meta\.url\);\s*$/gm;
const selfHash = crypto.createHash('sha256').update(fs.readFileSync(__filename)).digest('hex');

function isEsm(source, filename) {
  if (filename.endsWith('.ts') || filename.endsWith('.mjs')) return true;
  return /^\s*(import|export)\s/m.test(source);
}

module.exports = {
  getCacheKey(source, filename) {
    return crypto.createHash('sha256').update(selfHash).update(filename).update(source).digest('hex');
  },
  process(source, filename) {
    if (!isEsm(source, filename)) return { code: source };
    const input = source
      .replace(ownRequire, '')
      .replace(importMetaUrl, "require('node:url').pathToFileURL(__filename).href");
    const out = ts.transpileModule(input, {
      compilerOptions,
      fileName: filename.endsWith('.mjs') ? filename.replace(/\.mjs$/, '.js') : filename,
    });
    return { code: out.outputText };
  },
};
