/** The error body every Punctual door answers with, over HTTP and over RPC. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  /** One string, or one per problem found in the request. */
  message: string | string[];
}
