#!/usr/bin/env node
import { runCli } from './punctual-cli';

/** All of standard input, as text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

void runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr, readStdin }).then((code) => {
  process.exitCode = code;
});
