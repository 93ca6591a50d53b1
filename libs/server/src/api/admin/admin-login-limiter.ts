import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PunctualConfig, RedisClient, redisConnection } from '@app/config';

/**
 * The login scripts, each after the prelude they share (the longest block among the scopes), read
 * when the API builds its limiter from `lua/` beside this file (the builds copy them there).
 */
function loginScripts(): { blocked: string; countFailure: string } {
  const read = (name: string) => readFileSync(join(__dirname, 'lua', `${name}.lua`), 'utf8');
  const afterLongestBlock = (name: string) => `${read('admin-login-longest-block')}\n${read(name)}`;
  return { blocked: afterLongestBlock('admin-login-blocked'), countFailure: afterLongestBlock('count-admin-login-failure') };
}

/** One scope's count after a failed login. */
export interface ScopeCount {
  /** The address, or for IPv6 also its `…::/64`. */
  readonly scope: string;
  /** Failures of this scope in its current window, this one included. */
  readonly failures: number;
  /** This failure was the one that reached the limit: the scope is refused from now on. */
  readonly blockStarted: boolean;
}

/** What a failed login did: counted in every scope, or refused because a scope had no failure left. */
export type CountedFailure = { readonly refusedForMs: number } | { readonly refusedForMs: null; readonly scopes: readonly ScopeCount[] };

/**
 * Counts failed admin logins per scope (a client address, and an IPv6 client's /64) in Redis, so
 * every API process sees the same counts: `maxFailures` within `blockMs` (a fixed window from the
 * first failure) block the scope for `blockMs` from the last of them. A failure is counted only
 * while every scope of the login has one left, atomically, so however many wrong logins arrive at
 * once, no more than `maxFailures` are answered as wrong: the rest are refused like a blocked
 * address. Keys live under `QUEUE_PREFIX`, with a hash tag so a Redis Cluster keeps them, and so
 * every scope of one login, in one slot.
 *
 * When Redis cannot be reached, logins are neither counted nor refused (the password is still
 * checked): locking every operator out because Redis is down would be worse than the brute force
 * it guards against. That is logged once per outage.
 */
@Injectable()
export class AdminLoginLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AdminLogin');
  private readonly redis: RedisClient;
  private readonly keyPrefix: string;
  private readonly scripts = loginScripts();
  readonly maxFailures: number;
  readonly blockSeconds: number;
  private readonly blockMs: number;
  private unreachable = false;
  private closed = false;

  constructor(config: PunctualConfig) {
    this.maxFailures = config.admin.login.maxFailures;
    this.blockMs = config.admin.login.blockMs;
    this.blockSeconds = Math.ceil(this.blockMs / 1000);
    this.keyPrefix = `${config.redis.queuePrefix}:{admin-login}:`;
    this.redis = redisConnection(config.redis, {
      lazyConnect: true,
      // A command while Redis is away fails at once rather than holding an operator's request.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      commandTimeout: 1000,
    });
    this.redis.on('error', () => undefined); // reported once per outage below, not as unhandled events
  }

  async onModuleInit(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (error) {
      this.reportUnreachable(error);
    }
  }

  onApplicationShutdown(): void {
    this.closed = true;
    this.redis.disconnect();
  }

  /** Milliseconds until a login with these scopes may be tried again, or null when none is blocked (or Redis cannot say). */
  async blockedFor(scopes: readonly string[]): Promise<number | null> {
    const blocked = await this.run<number>(this.scripts.blocked, scopes, [this.maxFailures]);
    return blocked ? blocked : null;
  }

  /** Counts one failed login in each of its scopes, unless one has no failure left; null when Redis could not count it. */
  async countFailure(scopes: readonly string[]): Promise<CountedFailure | null> {
    const counted = await this.run<number[]>(this.scripts.countFailure, scopes, [this.maxFailures, this.blockMs]);
    if (!counted) return null;
    if (counted[0] === -1) return { refusedForMs: counted[1] };
    return {
      refusedForMs: null,
      scopes: scopes.map((scope, index) => ({ scope, failures: counted[2 * index], blockStarted: counted[2 * index + 1] === 1 })),
    };
  }

  private async run<T>(script: string, scopes: readonly string[], args: number[]): Promise<T | null> {
    try {
      const answer = (await this.redis.eval(script, scopes.length, ...scopes.map((scope) => this.keyPrefix + scope), ...args)) as T;
      this.reportReachable();
      return answer;
    } catch (error) {
      this.reportUnreachable(error);
      return null;
    }
  }

  private reportUnreachable(error: unknown): void {
    if (this.unreachable || this.closed) return;
    this.unreachable = true;
    this.logger.warn(
      `Cannot reach Redis to count failed admin logins (${(error as Error).message}): they are not limited until it answers again; passwords are still checked`,
    );
  }

  private reportReachable(): void {
    if (!this.unreachable) return;
    this.unreachable = false;
    this.logger.log('Redis answers again: failed admin logins are counted and limited again');
  }
}
