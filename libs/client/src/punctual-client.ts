import {
  ActionBatch,
  ActionName,
  ActionPage,
  ActionResource,
  ActionStats,
  CalendarListResource,
  CalendarResource,
  CreateActionBody,
  CreateWebhookRequest,
  CreatedWebhookResource,
  DeliveryPage,
  DeliveryResource,
  HistoryEntry,
  HistoryParams,
  KnownActionTypes,
  ListActionsParams,
  NoActionTypes,
  Occurrences,
  PageParams,
  PutCalendarRequest,
  RPC_PATTERNS,
  RpcPattern,
  UpdateActionRequest,
  WebhookList,
  WebhookResource,
} from '@punctual/contract';
import { Door, GrpcDoor, HttpDoor, RpcDoor, queryString } from './doors';
import { SignedGrpc, SignedGrpcOptions } from './grpc/signed-grpc';
import { SignedHttp, SignedHttpOptions } from './http/signed-http';
import { SignedRpc, SignedRpcOptions } from './rpc/signed-rpc';

/**
 * A typed client of Punctual's `/actions` API, over HTTP, gRPC or a NestJS transport (Redis or
 * NATS), and of its `/webhooks` API over HTTP. Every request is signed with the function the API
 * verifies with; every answer is typed as the API sends it; every refusal is a `PunctualError`
 * with the status code.
 *
 * `Types` maps the project's own action types to their data (`{ SEND_SMS: SmsData }`, or
 * `ActionTypeMap<typeof SEND_SMS>` from `defineActionType` results); the built-in types are always
 * known. A create must name a known type and give it that type's data, or it does not compile.
 * `UntypedActionTypes` takes any name and any JSON object, as the API does before checking them.
 *
 * @example
 * const punctual = PunctualClient.overRpc<ActionTypeMap<typeof SEND_SMS>>({ transport: 'redis://127.0.0.1:6379', keyId: 'billing', secret });
 * const action = await punctual.create({ action: 'MESSAGE', executionTime: trialEnd, data: { pattern: 'billing.downgrade', payload: { accountId } } },
 *   { idempotencyKey: `downgrade-${accountId}` });
 */
export class PunctualClient<Types extends object = NoActionTypes> {
  /** The calendars whose dates repeating actions skip. */
  readonly calendars: PunctualCalendars;

  protected constructor(private readonly door: Door) {
    this.calendars = new PunctualCalendars(door);
  }

  /** A client over HTTP: every `/actions` route, and the `/webhooks` routes under `webhooks`. */
  static overHttp<Types extends object = NoActionTypes>(options: SignedHttpOptions): PunctualHttpClient<Types> {
    return new PunctualHttpClient<Types>(new SignedHttp(options));
  }

  static overRpc<Types extends object = NoActionTypes>(options: SignedRpcOptions): PunctualClient<Types> {
    return new PunctualClient<Types>(new RpcDoor(new SignedRpc(options)));
  }

  /** A client over the API's gRPC service (`GRPC_URL`), with the same methods and answers as over a NestJS transport. */
  static overGrpc<Types extends object = NoActionTypes>(options: SignedGrpcOptions): PunctualClient<Types> {
    return new PunctualClient<Types>(new GrpcDoor(new SignedGrpc(options)));
  }

  /** Creates an action; with an idempotency key, a repeat returns the action created the first time. */
  create(body: CreateActionBody<Types>, options: { idempotencyKey?: string } = {}): Promise<ActionResource> {
    return this.door.call({
      http: { method: 'POST', path: '/actions', body },
      rpc: { pattern: RPC_PATTERNS.create, body },
      idempotencyKey: options.idempotencyKey,
    });
  }

  /** Creates up to 1000 actions, all or none. */
  createBatch(items: readonly CreateActionBody<Types>[]): Promise<ActionBatch> {
    const body = { items };
    return this.door.call({ http: { method: 'POST', path: '/actions/batch', body }, rpc: { pattern: RPC_PATTERNS.createBatch, body } });
  }

  /** The times a create body would run at; nothing is stored. */
  preview(action: CreateActionBody<Types>, count?: number): Promise<Occurrences> {
    return this.door.call({
      http: { method: 'POST', path: `/actions/preview${queryString({ count })}`, body: action },
      rpc: { pattern: RPC_PATTERNS.preview, body: { action, count } },
    });
  }

  get(id: string): Promise<ActionResource> {
    return this.door.call({ http: { method: 'GET', path: `/actions/${encodeURIComponent(id)}` }, rpc: { pattern: RPC_PATTERNS.get, body: { id } } });
  }

  list(params: ListActionsParams<ActionName<Types>> = {}): Promise<ActionPage> {
    return this.door.call({ http: { method: 'GET', path: `/actions${queryString({ ...params })}` }, rpc: { pattern: RPC_PATTERNS.list, body: params } });
  }

  stats(): Promise<ActionStats> {
    return this.door.call({ http: { method: 'GET', path: '/actions/stats' }, rpc: { pattern: RPC_PATTERNS.stats, body: {} } });
  }

  /** One page of the action's history, oldest first. */
  history(id: string, params: HistoryParams = {}): Promise<HistoryEntry[]> {
    return this.door.call({
      http: { method: 'GET', path: `/actions/${encodeURIComponent(id)}/history${queryString({ ...params })}` },
      rpc: { pattern: RPC_PATTERNS.history, body: { id, ...params } },
    });
  }

  occurrences(id: string, count?: number): Promise<Occurrences> {
    return this.door.call({
      http: { method: 'GET', path: `/actions/${encodeURIComponent(id)}/occurrences${queryString({ count })}` },
      rpc: { pattern: RPC_PATTERNS.occurrences, body: { id, count } },
    });
  }

  /**
   * Changes the fields given. New `data` replaces the action's and must be data of a known type;
   * name the type (`update<'SEND_SMS'>(id, { data })`) to have it checked against that type's alone.
   */
  update<Name extends ActionName<Types> = ActionName<Types>>(
    id: string,
    changes: UpdateActionRequest<KnownActionTypes<Types>[Name]>,
  ): Promise<ActionResource> {
    return this.door.call({
      http: { method: 'PATCH', path: `/actions/${encodeURIComponent(id)}`, body: changes },
      rpc: { pattern: RPC_PATTERNS.update, body: { id, changes } },
    });
  }

  async delete(id: string): Promise<void> {
    await this.door.call({ http: { method: 'DELETE', path: `/actions/${encodeURIComponent(id)}` }, rpc: { pattern: RPC_PATTERNS.delete, body: { id } } });
  }

  /**
   * Stops the action for good: `CANCELED` at once, or, while an occurrence runs or is locked, with
   * `cancelRequestedAt` set until that occurrence ends (then `CANCELED`, with no retry and no next occurrence).
   */
  cancel(id: string, options: { note?: string } = {}): Promise<ActionResource> {
    return this.control(id, 'cancel', RPC_PATTERNS.cancel, options);
  }

  /** Holds every later occurrence until `resume`; one that is running or locked finishes first. */
  pause(id: string, options: { note?: string } = {}): Promise<ActionResource> {
    return this.control(id, 'pause', RPC_PATTERNS.pause, options);
  }

  /** Lets a paused action run again; an occurrence whose time passed meanwhile follows its misfire policy. */
  resume(id: string): Promise<ActionResource> {
    return this.control(id, 'resume', RPC_PATTERNS.resume);
  }

  /** The next `count` occurrences (1 by default) do not run; a running or locked one runs first. */
  skip(id: string, options: { count?: number } = {}): Promise<ActionResource> {
    return this.control(id, 'skip', RPC_PATTERNS.skip, options);
  }

  retry(id: string): Promise<ActionResource> {
    return this.control(id, 'retry', RPC_PATTERNS.retry);
  }

  /** Closes the transport connection the client opened (nothing to close over HTTP). */
  close(): Promise<void> {
    return this.door.close();
  }

  /** `POST /actions/:id/<route>`, or its message pattern, with the options given (a route with options always sends a body). */
  private control(id: string, route: string, pattern: RpcPattern, options?: Record<string, unknown>): Promise<ActionResource> {
    const body = options && Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    return this.door.call({
      http: { method: 'POST', path: `/actions/${encodeURIComponent(id)}/${route}`, body },
      rpc: { pattern, body: { id, ...body } },
    });
  }
}

/** The `/calendars` routes, or their message patterns: named dates that the schedules naming them skip. */
export class PunctualCalendars {
  constructor(private readonly door: Door) {}

  /** Creates the calendar, or replaces its dates and description; the change applies to every occurrence still to come. */
  put(name: string, body: PutCalendarRequest): Promise<CalendarResource> {
    return this.door.call({
      http: { method: 'PUT', path: `/calendars/${encodeURIComponent(name)}`, body },
      rpc: { pattern: RPC_PATTERNS.putCalendar, body: { name, ...body } },
    });
  }

  get(name: string): Promise<CalendarResource> {
    return this.door.call({
      http: { method: 'GET', path: `/calendars/${encodeURIComponent(name)}` },
      rpc: { pattern: RPC_PATTERNS.getCalendar, body: { name } },
    });
  }

  /** One page of the calendars, by name (`limit` 1–100, default 20); pass its `nextCursor` as `cursor` for the next. */
  list(params: PageParams = {}): Promise<CalendarListResource> {
    return this.door.call({
      http: { method: 'GET', path: `/calendars${queryString({ ...params })}` },
      rpc: { pattern: RPC_PATTERNS.listCalendars, body: params },
    });
  }

  /** Refused (409) while an action names the calendar. */
  async delete(name: string): Promise<void> {
    await this.door.call({
      http: { method: 'DELETE', path: `/calendars/${encodeURIComponent(name)}` },
      rpc: { pattern: RPC_PATTERNS.deleteCalendar, body: { name } },
    });
  }
}

/** A client over HTTP, which also reaches the `/webhooks` routes (they have no message patterns). */
export class PunctualHttpClient<Types extends object = NoActionTypes> extends PunctualClient<Types> {
  /** Lifecycle webhook subscriptions and their deliveries. */
  readonly webhooks: PunctualWebhooks;

  constructor(
    /** The raw signed HTTP exchange, for requests the typed methods do not make. */
    readonly http: SignedHttp,
  ) {
    const door = new HttpDoor(http);
    super(door);
    this.webhooks = new PunctualWebhooks(door);
  }
}

/** The `/webhooks` routes: subscriptions to lifecycle events, and what was delivered to them. */
export class PunctualWebhooks {
  constructor(private readonly door: HttpDoor) {}

  /** Subscribes a URL; the answer holds the signing secret, shown only this once. */
  create(body: CreateWebhookRequest): Promise<CreatedWebhookResource> {
    return this.door.send('POST', '/webhooks', body);
  }

  list(): Promise<WebhookList> {
    return this.door.send('GET', '/webhooks');
  }

  get(id: string): Promise<WebhookResource> {
    return this.door.send('GET', `/webhooks/${encodeURIComponent(id)}`);
  }

  /** Stops delivering to the subscription; its pending deliveries are dropped. */
  async delete(id: string): Promise<void> {
    await this.door.send('DELETE', `/webhooks/${encodeURIComponent(id)}`);
  }

  /** One page of the subscription's deliveries, newest first. */
  deliveries(id: string, params: PageParams = {}): Promise<DeliveryPage> {
    return this.door.send('GET', `/webhooks/${encodeURIComponent(id)}/deliveries${queryString({ ...params })}`);
  }

  /** Queues a `webhook.test` event for the subscription; answers its delivery. */
  test(id: string): Promise<DeliveryResource> {
    return this.door.send('POST', `/webhooks/${encodeURIComponent(id)}/test`);
  }

  /** Sends a `DELIVERED` or `FAILED` delivery of the subscription again, with the same `webhook-id`; answers it, `PENDING` again. */
  redeliver(webhookId: string, deliveryId: string): Promise<DeliveryResource> {
    return this.door.send('POST', `/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
  }
}
