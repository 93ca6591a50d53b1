/** A job arrived before its action may run (early, or while another attempt holds the claim): run it again in `dueInMs`. */
export class NotDueYetError extends Error {
  constructor(readonly dueInMs: number) {
    super(`not due for another ${dueInMs} ms`);
    this.name = 'NotDueYetError';
  }
}
