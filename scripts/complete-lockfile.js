#!/usr/bin/env node
// Adds lockfile entries for platform-specific optional packages that a registry
// mirror may not serve, so `npm ci` accepts the lockfile on every platform.
// Names end in -<os>-<cpu>, optionally followed by an ABI (-gnu, -musl, -msvc, -gnueabihf, ...).
const fs = require('fs');
const path = require('path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));

const PLATFORM =
  /-(darwin|linux|win32|freebsd|android|openharmony|netbsd|openbsd|sunos|aix)-(x64|arm64|arm|ia32|loong64|ppc64|riscv64|s390x)(?:-(gnu|glibc|musl|msvc|eabi|gnueabihf|musleabihf))?$/;
const LIBC = { gnu: 'glibc', glibc: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };
let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = PLATFORM.exec(name);
    const target = `node_modules/${name}`;
    if (!match || lock.packages[target]) continue;
    const stub = { version, cpu: [match[2]] };
    if (entry.dev) stub.dev = true;
    if (LIBC[match[3]]) stub.libc = [LIBC[match[3]]];
    Object.assign(stub, { license: 'MIT', optional: true, os: [match[1]] });
    lock.packages[target] = stub;
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`added ${added} optional platform entries\n`);
