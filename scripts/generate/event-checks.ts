import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventChecksSource } from '../../libs/contracts/src/event-checks-source';

const out = join(__dirname, '..', '..', 'libs', 'contracts', 'src', 'event-checks.generated.ts');
writeFileSync(out, eventChecksSource());
console.log(`wrote ${out}`);
