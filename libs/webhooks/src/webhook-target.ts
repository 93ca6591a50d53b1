import { EgressPolicy, userInfoProblem } from '@app/outbound';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Where a delivery goes: an HTTP receiver, or a mailbox through `SMTP_URL`. */
export type WebhookTarget = { kind: 'http'; url: URL } | { kind: 'email'; address: string };

/** A `mailto:` address: one mailbox, no header fields (`?cc=`, `?subject=`) a subscriber could smuggle in. */
const MAILBOX = /^[^\s@,;<>()[\]\\"?&]+@[^\s@,;<>()[\]\\"?&]+\.[^\s@,;<>()[\]\\"?&]+$/;

/** The target of a URL, or null when it is neither http(s) nor a plain `mailto:` address. */
export function webhookTargetOf(text: string): WebhookTarget | null {
  if (text.startsWith('mailto:')) {
    const address = decodeURIComponentOrNull(text.slice('mailto:'.length));
    return address && MAILBOX.test(address) ? { kind: 'email', address } : null;
  }
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { kind: 'http', url } : null;
  } catch {
    return null;
  }
}

/**
 * Why `text` cannot receive webhooks, naming `field`, or null. Checked when a subscription or a
 * callback URL is set: the scheme, the length, no user information, and the egress policy for
 * hosts judged without DNS (IP literals, `localhost`); other names are judged on the address
 * connected to at delivery.
 */
export function webhookUrlProblem(text: unknown, field: string, egress: EgressPolicy, allowMailto: boolean): string | null {
  const schemes = allowMailto ? 'an https://, http:// or mailto: URL' : 'an https:// or http:// URL';
  if (typeof text !== 'string' || text.length === 0) return `${field} must be ${schemes}`;
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return `${field} must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  const target = webhookTargetOf(text);
  if (!target || (target.kind === 'email' && !allowMailto)) return `${field} must be ${schemes}`;
  if (target.kind === 'http') {
    const userInfo = userInfoProblem(target.url);
    if (userInfo) return `${field} ${userInfo}`;
    const refusal = egress.refusalOfUrl(target.url);
    if (refusal) return `${field} is not an allowed destination: ${refusal} (see OUTBOUND_ALLOWED_HOSTS)`;
  }
  return null;
}

function decodeURIComponentOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
