import { Logger } from '@nestjs/common';

const EVERY_MS = 60_000;

/** Warnings logged at most once a minute per subject, so a client that keeps sending the same mistake cannot flood the log. */
export class ThrottledWarnings {
  private readonly lastLoggedAt = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  /** `about` is what is counted separately (a tenant): callers keep it to a bounded set. */
  warn(about: string, message: string): void {
    const now = Date.now();
    if (now - (this.lastLoggedAt.get(about) ?? -Infinity) < EVERY_MS) return;
    this.lastLoggedAt.set(about, now);
    this.logger.warn(message);
  }
}
