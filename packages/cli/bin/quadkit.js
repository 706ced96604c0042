#!/usr/bin/env node
// The quadkit command's launcher: runs the command (compiled to dist/) on the process's
// arguments and standard streams, and exits with its status.
import { main } from '../dist/main.js';

// A reader that stops early (`| head`) closes stdout: the answer is then complete for it.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2));
