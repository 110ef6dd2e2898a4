#!/usr/bin/env node
import { installInterruptHandler } from './cli/interrupt';
import { reportPeakMemory, runCli } from './cli/program';
import { COMMANDS } from './commands';

installInterruptHandler();
runCli(process.argv, COMMANDS).then((code) => {
  reportPeakMemory();
  process.exit(code);
});
