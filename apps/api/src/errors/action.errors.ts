/** The id names no action. → 404 */
export class ActionNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`Action ${id} not found`);
  }
}

/** The request is well-formed JSON but asks for something invalid. → 400 */
export class InvalidRequestError extends Error {}
