import type { CommandRegistration } from '../cli/program';
import { adminApi } from './admin-api';

/** `ops business create --name "Acme"`: the admin API, printing the four keys (shown once). */
export const registerBusiness: CommandRegistration = (program, ctx) => {
  program
    .command('business')
    .description('businesses (through the admin API)')
    .command('create')
    .description('create a business and print its four API keys (shown once)')
    .requiredOption('--name <name>', 'the business name')
    .action(async (opts: { name: string }) => {
      console.log(
        JSON.stringify(await adminApi(ctx.config(), 'POST', '/admin/v1/businesses', { name: opts.name }), null, 2),
      );
    });
};
