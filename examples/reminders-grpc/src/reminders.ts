import { ActionPage, ActionResource, PunctualClient } from '@punctual/client';

export interface RemindersConfig {
  /** `host:port` of Punctual's gRPC service (its `GRPC_URL`), or of the load balancer in front of its API processes. */
  punctualAddress: string;
  keyId: string;
  secret: string;
  /** Where Punctual posts each reminder when it is due. */
  reminderUrl: string;
}

/**
 * A sibling app's payment reminders, scheduled in Punctual over gRPC: a reminder is an
 * `HTTP_REQUEST` to the app's own endpoint, every day at the same time, three times.
 */
export class Reminders {
  private readonly punctual: PunctualClient;

  constructor(private readonly config: RemindersConfig) {
    this.punctual = PunctualClient.overGrpc({ address: config.punctualAddress, keyId: config.keyId, secret: config.secret });
  }

  /** Schedules the reminders of an invoice; asking again for the same invoice finds the action scheduled the first time. */
  schedule(invoiceId: string, firstAt: Date): Promise<ActionResource> {
    return this.punctual.create(
      {
        action: 'HTTP_REQUEST',
        executionTime: firstAt.toISOString(),
        repeat: true,
        frequency: 'DAILY',
        executionRemainder: 3,
        data: { url: this.config.reminderUrl, method: 'POST', body: { invoiceId } },
        metadata: { app: 'reminders', invoiceId },
      },
      { idempotencyKey: `reminders-${invoiceId}` },
    );
  }

  show(actionId: string): Promise<ActionResource> {
    return this.punctual.get(actionId);
  }

  /** The reminders still to come, soonest first. */
  upcoming(): Promise<ActionPage> {
    return this.punctual.list({ status: 'PENDING', action: 'HTTP_REQUEST' });
  }

  /** The customer disputes the invoice: no reminder until `resume`. */
  hold(actionId: string): Promise<ActionResource> {
    return this.punctual.pause(actionId, { note: 'invoice disputed' });
  }

  resume(actionId: string): Promise<ActionResource> {
    return this.punctual.resume(actionId);
  }

  /** The invoice is paid: no reminder ever again. */
  stop(actionId: string): Promise<ActionResource> {
    return this.punctual.cancel(actionId, { note: 'invoice paid' });
  }

  close(): Promise<void> {
    return this.punctual.close();
  }
}
