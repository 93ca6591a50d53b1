/** A failure that no retry can fix (bad data that slipped through, HTTP 410): the action fails at once. */
export class PermanentFulfillmentError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentFulfillmentError';
  }
}
