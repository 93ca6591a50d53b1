import { parseConnectionUrl } from 'nodemailer/lib/shared';
import SMTPTransport from 'nodemailer/lib/smtp-transport';

/** How to reach the SMTP server, or why nothing may be sent to it. */
export interface SmtpSettings {
  readonly options: SMTPTransport.Options;
  /** Set when the URL's own options would let its credentials travel in clear: every send fails with it. */
  readonly refusal: string | null;
}

/**
 * Reads `SMTP_URL` as nodemailer does (`smtps:` is TLS from the start, query parameters are
 * transport options). Credentials are only ever sent over TLS: on a plain connection that the
 * server does not upgrade with STARTTLS, the send fails (`requireTLS`), unless the URL says
 * `requireTLS=false` in so many words.
 */
export function smtpSettings(url: string): SmtpSettings {
  const options = parseConnectionUrl(url);
  const clearAllowed = new URL(url).searchParams.get('requireTLS') === 'false';
  if (!options.auth || options.secure || clearAllowed) return { options, refusal: null };
  // Either option makes nodemailer go on without TLS, requireTLS or not.
  const unsafe = (['ignoreTLS', 'opportunisticTLS'] as const).find((option) => options[option]);
  return {
    options: { ...options, requireTLS: true },
    refusal: unsafe
      ? `not sent: SMTP_URL carries credentials and ${unsafe}=true, which would send them without TLS; add requireTLS=false to allow that`
      : null,
  };
}
