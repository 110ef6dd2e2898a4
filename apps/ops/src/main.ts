#!/usr/bin/env node
import { runCli } from './cli/program';
import { COMMANDS } from './commands';

runCli(process.argv, COMMANDS).then((code) => process.exit(code));
