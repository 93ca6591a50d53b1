/**
 * An outbound call that did not get a complete answer. Messages are phrased to follow a
 * description of the call (`HTTP_REQUEST to hooks.example.com timed out after 100 ms`) and name
 * neither the URL nor a header value: they end up in histories that API clients read.
 */
export class OutboundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A call that no retry can fix, because it is refused before anything is sent. */
export class PermanentOutboundError extends OutboundError {}

/** The destination is an internal address that `OUTBOUND_ALLOWED_HOSTS` does not allow; nothing was sent. */
export class DestinationNotAllowedError extends PermanentOutboundError {
  constructor(readonly reason: string) {
    super(`not sent: the destination is not allowed (${reason})`);
  }
}

/** The URL, method or a header cannot be sent at all. */
export class InvalidOutboundRequestError extends PermanentOutboundError {
  constructor(reason: string) {
    super(`not sent: ${reason}`);
  }
}

export class ResponseTooLargeError extends OutboundError {
  constructor(limitBytes: number) {
    super(`failed: the response is larger than ${limitBytes / 1024 / 1024} MiB`);
  }
}

export class OutboundTimeoutError extends OutboundError {
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
  }
}

/** The caller's signal stopped the call (the attempt lost its claim, or the worker is stopping). */
export class OutboundAbortedError extends OutboundError {
  constructor() {
    super('stopped: the attempt was cancelled');
  }
}
