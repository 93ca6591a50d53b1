import { Logger } from '@nestjs/common';
import { NatsContext, NatsOptions, ServerNats } from '@nestjs/microservices';
import type { Msg } from '@nats-io/transport-node';
import { isInTenantInbox } from '@app/config';
import { PunctualMetrics } from '@app/observability';
import { ThrottledWarnings } from './throttled-warnings';

/**
 * Whether a request may be answered: shut until `TenantInboxGuard` finds, once the signature is
 * verified, that the reply subject lies in the inbox of the tenant whose key signed it.
 */
export class ReplyGate {
  private open = false;
  /** The verified tenant the gate stayed shut for, to name it in the log. */
  private refused: string | null = null;

  constructor(
    private readonly tenantInboxPrefix: string,
    readonly replySubject: string | undefined,
  ) {}

  /** Opens the gate if the reply subject lies in `tenant`'s inbox; `tenant` is the verified signer's. */
  admit(tenant: string): boolean {
    this.open = isInTenantInbox(this.replySubject, this.tenantInboxPrefix, tenant);
    if (!this.open) this.refused = tenant;
    return this.open;
  }

  get isOpen(): boolean {
    return this.open;
  }

  get refusedTenant(): string | null {
    return this.refused;
  }
}

/** The gate of each request in flight, by the context NestJS hands both the publisher and the handler's guards. */
const gates = new WeakMap<object, ReplyGate>();

/** The gate of the request an RPC context belongs to; undefined off this server (Redis, or NATS with the check off). */
export function replyGateOf(context: unknown): ReplyGate | undefined {
  return typeof context === 'object' && context !== null ? gates.get(context) : undefined;
}

/**
 * NestJS's NATS server, publishing a reply only into the inbox of the tenant whose key signed the
 * request (`RPC_TENANT_INBOX_PREFIX`). Punctual's NATS user may answer any request it receives, so
 * without this a tenant could name another tenant's inbox as its reply subject and have Punctual
 * deliver a reply there. A request refused so, or whose signature does not verify (its sender is
 * unknown, so no inbox is known to be its own), is left unanswered: there is nowhere safe to say why.
 */
export class TenantInboxNatsServer extends ServerNats {
  private readonly dropLogger = new Logger(TenantInboxNatsServer.name);
  private readonly warnings = new ThrottledWarnings(this.dropLogger);

  constructor(
    options: Required<NatsOptions>['options'],
    private readonly tenantInboxPrefix: string,
    /** Whether replies are held to the tenant's inbox now (always, or while tenants share Punctual). */
    private readonly pinned: () => boolean,
    private readonly metrics: PunctualMetrics,
  ) {
    super(options);
  }

  /** NestJS asks for the publisher before it runs the handler, with the context the guards will see. */
  override getPublisher(natsMsg: Msg, id: string, ctx: NatsContext): (response: unknown) => unknown {
    const publish = super.getPublisher(natsMsg, id, ctx) as (response: unknown) => unknown;
    if (!this.pinned()) return publish;
    const gate = new ReplyGate(this.tenantInboxPrefix, natsMsg.reply);
    gates.set(ctx, gate);
    return (response) => (gate.isOpen ? publish(response) : this.dropped(ctx.getSubject(), gate, response));
  }

  private dropped(pattern: string, gate: ReplyGate, response: unknown): void {
    const tenant = gate.refusedTenant;
    if (tenant !== null) {
      this.metrics.replyWithheld('outside_tenant_inbox');
      this.warnings.warn(
        tenant,
        `Left a request of tenant ${tenant} on ${pattern} unhandled and unanswered: its reply subject ${JSON.stringify(gate.replySubject)} ` +
          `is outside the tenant's inbox (RPC_TENANT_INBOX_PREFIX=${this.tenantInboxPrefix}); its client sets inboxPrefix to it`,
      );
      return;
    }
    const refusal = (response as { err?: { message?: unknown } } | null)?.err?.message;
    if (refusal === undefined) return;
    this.metrics.replyWithheld('unverified');
    this.warnings.warn(
      '',
      `Left a request on ${pattern} unanswered: ${JSON.stringify(refusal)}; over NATS, a request whose signature is not verified gets no reply`,
    );
  }
}
