import type { CommandRegistration } from '../cli/program';
import { registerBusiness } from './admin-ops';
import { registerDlq } from './dlq';
import { registerLag } from './lag';
import { registerReconcile } from './reconcile';
import { registerReplay } from './replay';
import { registerWebhooksListen } from './webhooks-listen';
import { registerWebhooks } from './webhooks-recover';

/** Every `ops` command, in the order `ops --help` lists them. */
export const COMMANDS: CommandRegistration[] = [
  registerLag,
  registerReplay,
  registerDlq,
  registerBusiness,
  registerWebhooks,
  registerWebhooksListen,
  registerReconcile,
];
