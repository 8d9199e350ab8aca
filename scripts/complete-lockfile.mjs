// Adds lock entries for platform-specific optional packages that this machine's npm registry
// mirror does not serve (other operating systems' native binaries). Each entry carries the
// package's os/cpu/libc, so `npm ci` sees a complete lock and skips them as incompatible.
// Run after regenerating package-lock.json: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x'];
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`;
    const key = `${base}node_modules/${name}`;
    if (lock.packages[key] || lock.packages[`node_modules/${name}`]) continue;
    const tokens = name.split('/').pop().split('-');
    const os = tokens.find((t) => OS.includes(t));
    const cpu = tokens.find((t) => CPU.includes(t));
    if (!os || !cpu) continue;
    const libc = tokens.map((t) => LIBC[t]).find(Boolean);
    lock.packages[`node_modules/${name}`] = {
      version: spec.replace(/^[\^~=]/, ''),
      cpu: [cpu],
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries`);
