import { Client, ChannelCredentials, credentials } from '@grpc/grpc-js';
import { isIP } from 'node:net';
import { DestinationNotAllowedError } from '../client/outbound.errors';
import { AllowedAddresses } from '../egress/allowed-addresses';
import { EgressPolicy } from '../egress/egress-policy';
import { GrpcTarget } from './grpc-target';

/** Channels kept open at once; past it the least recently used one is closed. */
export const MAX_GRPC_CHANNELS = 100;
/** A channel unused this long is closed. */
export const GRPC_CHANNEL_IDLE_MS = 60_000;
/** The largest answer read, as for HTTP: a hostile server costs a process one such buffer (and its decoding), no more. */
export const MAX_GRPC_ANSWER_BYTES = 1024 * 1024;

interface Entry {
  readonly client: Client;
  lastUsedAt: number;
  inFlight: number;
}

/**
 * One gRPC channel per target, address and TLS setting, kept for the calls that follow. A channel
 * connects to an address the egress policy allows, found when it is asked for (DNS included) and
 * pinned in the channel, so that no later resolution reaches an internal address; gRPC's own
 * resolver and any proxy from the environment are never used.
 */
export class GrpcChannels {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper = setInterval(() => this.closeIdle(), GRPC_CHANNEL_IDLE_MS / 4).unref();

  constructor(
    private readonly policy: EgressPolicy,
    private readonly addresses: AllowedAddresses,
    private readonly tlsRoots: () => Buffer,
  ) {}

  /** Runs `work` on a channel to the target; refuses (`DestinationNotAllowedError`) an address the egress policy refuses. */
  async use<T>(target: GrpcTarget, tls: boolean, work: (client: Client) => Promise<T>): Promise<T> {
    const address = await this.allowedAddress(target.host);
    const key = `${tls ? 'tls' : 'plain'}|${target.host}|${address}|${target.port}`;
    const entry = this.entries.get(key) ?? this.open(key, target, address, tls);
    // Most recently used last: the first entry is the one to close when there are too many.
    this.entries.delete(key);
    this.entries.set(key, entry);
    entry.inFlight += 1;
    try {
      return await work(entry.client);
    } finally {
      entry.inFlight -= 1;
      entry.lastUsedAt = Date.now();
    }
  }

  /** Closes every channel; calls still running end with CANCELLED. */
  close(): void {
    clearInterval(this.sweeper);
    for (const entry of this.entries.values()) entry.client.close();
    this.entries.clear();
  }

  private async allowedAddress(host: string): Promise<string> {
    if (isIP(host)) {
      const refusal = this.policy.refusalOfAddress(host);
      if (refusal) throw new DestinationNotAllowedError(refusal);
      return host;
    }
    // IPv4 first: `localhost` often resolves to ::1 first while servers listen on 127.0.0.1 only.
    const allowed = await this.addresses.of(host);
    return (allowed.find((a) => a.family === 4) ?? allowed[0]).address;
  }

  private open(key: string, target: GrpcTarget, address: string, tls: boolean): Entry {
    while (this.entries.size >= MAX_GRPC_CHANNELS) this.closeEntry(this.leastRecentlyUsed());
    const pinned = isIP(address) === 6 ? `ipv6:[${address}]:${target.port}` : `ipv4:${address}:${target.port}`;
    const channelCredentials: ChannelCredentials = tls ? credentials.createSsl(this.tlsRoots()) : credentials.createInsecure();
    const client = new Client(pinned, channelCredentials, {
      // The name the target's certificate and virtual hosting expect, not the address connected to.
      'grpc.default_authority': `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`,
      ...(tls && !isIP(target.host) ? { 'grpc.ssl_target_name_override': target.host } : {}),
      'grpc.enable_http_proxy': 0,
      'grpc.max_receive_message_length': MAX_GRPC_ANSWER_BYTES,
      'grpc.enable_retries': 0,
    });
    const entry: Entry = { client, lastUsedAt: Date.now(), inFlight: 0 };
    this.entries.set(key, entry);
    return entry;
  }

  /** The least recently used channel without a call in flight, else the least recently used one. */
  private leastRecentlyUsed(): string {
    for (const [key, entry] of this.entries) if (entry.inFlight === 0) return key;
    return this.entries.keys().next().value!;
  }

  private closeIdle(): void {
    const before = Date.now() - GRPC_CHANNEL_IDLE_MS;
    for (const [key, entry] of this.entries) {
      if (entry.inFlight === 0 && entry.lastUsedAt < before) this.closeEntry(key);
    }
  }

  private closeEntry(key: string): void {
    this.entries.get(key)?.client.close();
    this.entries.delete(key);
  }
}
