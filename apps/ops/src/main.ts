#!/usr/bin/env node
import { installInterruptHandler } from './cli/interrupt';
import { reportPeakMemory, runCli } from './cli/program';
import { COMMANDS } from './commands';

installInterruptHandler();
runCli(process.argv, COMMANDS).then((code) => {
  reportPeakMemory();
  // Into a pipe (`ops dlq list --limit 0 | less`) stdout is written asynchronously: exiting at once
  // would cut the output. An empty write's callback runs once everything before it was flushed.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
