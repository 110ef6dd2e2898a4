import { ErrorCodes } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { ForbiddenTargetError, type HttpSender } from '../delivery/http-sender';
import { callbackUrlProblem } from '../delivery/ssrf';
import { EVENT_CATALOGUE } from '../events/catalogue';

// What creating and updating a callback check in the merchant's input: its events, and its URL
// (through the sender's SSRF guard).

export const invalid = (field: string, message: string) =>
  new DomainException(ErrorCodes.ValidationError, `${field} ${message}`, [{ field, message }]);

export async function validateTarget(sender: HttpSender, url: string): Promise<void> {
  const problem = callbackUrlProblem(url);
  if (problem) throw invalid('url', problem);
  try {
    await sender.resolveTarget(new URL(url).hostname);
  } catch (err) {
    const why = err instanceof ForbiddenTargetError ? err.message : `cannot be resolved (${(err as Error).message})`;
    throw invalid('url', `is not allowed: ${why}`);
  }
}

export function validateEvents(events: string[]): void {
  const unknown = events.filter((e) => !(EVENT_CATALOGUE as readonly string[]).includes(e));
  if (events.length === 0) throw invalid('events', 'must name at least one event');
  if (unknown.length > 0)
    throw invalid(
      'events',
      `has unknown event types ${unknown.join(', ')}; valid ones are ${EVENT_CATALOGUE.join(', ')}`,
    );
}
