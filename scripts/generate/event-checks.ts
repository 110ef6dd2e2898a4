import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventChecksSource } from '../../libs/contracts/src/event-checks-source';

const out = join(__dirname, '..', '..', 'libs', 'contracts', 'src', 'event-checks.generated.ts');
writeFileSync(out, eventChecksSource());
// TypeBox writes each check on one line; the formatter keeps every line within the project's width.
execFileSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--write', '--log-level=warn', out]);
console.log(`wrote ${out}`);
