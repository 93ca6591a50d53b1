import { Injectable } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import Mail from 'nodemailer/lib/mailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';
import { PunctualConfig } from '@app/config';
import { SmtpSettings, smtpSettings } from './smtp-settings';

/** How much longer than a send's limit its connection may wait before closing itself. */
const TRANSPORT_GRACE_MS = 1000;

export interface SendLimits {
  /** The whole send, connecting included. */
  readonly timeoutMs: number;
  /** Stops waiting for the server when aborted. */
  readonly signal?: AbortSignal;
}

/**
 * The one way Punctual sends email: through `SMTP_URL`, from `SMTP_FROM`, each message within a
 * time limit, so that a hanging SMTP server holds an attempt no longer than a hanging HTTP receiver.
 */
@Injectable()
export class SmtpMailer {
  private readonly settings: SmtpSettings | null;

  constructor(private readonly config: PunctualConfig) {
    this.settings = config.smtp.url ? smtpSettings(config.smtp.url) : null;
  }

  get configured(): boolean {
    return this.settings !== null;
  }

  async send(message: Mail.Options, limits: SendLimits): Promise<SMTPTransport.SentMessageInfo> {
    if (!this.settings) throw new Error('SMTP_URL is not set');
    if (this.settings.refusal) throw new Error(this.settings.refusal);
    // A connection of its own, whose timeouts close it once the send gave up on it. They run a
    // little longer than the send's limit, so that the limit, which names the wait, always speaks
    // first: nodemailer counts the greeting's wait from the start of the connection.
    const transportTimeoutMs = limits.timeoutMs + TRANSPORT_GRACE_MS;
    const transport = createTransport({
      ...this.settings.options,
      connectionTimeout: transportTimeoutMs,
      greetingTimeout: transportTimeoutMs,
      socketTimeout: transportTimeoutMs,
    });
    try {
      return await withinLimits(transport.sendMail({ from: this.config.smtp.from, ...message }), limits, 'the SMTP server');
    } catch (error) {
      throw this.settings.options.requireTLS && (error as { code?: string }).code === 'ETLS' ? clearTextRefused(error as Error) : error;
    } finally {
      transport.close();
    }
  }
}

function clearTextRefused(error: Error): Error {
  return new Error(
    `not sent: the SMTP server did not upgrade the connection to TLS (${error.message}), and the credentials of SMTP_URL are never sent without it; add requireTLS=false to SMTP_URL to allow that`,
  );
}

/** `work`, or an error once `timeoutMs` passed or `signal` aborted without it. */
async function withinLimits<T>(work: Promise<T>, { timeoutMs, signal }: SendLimits, who: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from ${who} within ${timeoutMs} ms`)), timeoutMs);
    onAbort = () => reject(new Error(`stopped before ${who} answered`));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
