import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { parseJsonBody } from '../input/json-body';
import { BufferedRequest } from './body-parsers';

const utf8 = new TextDecoder();

/**
 * Parses the body bytes `useBufferedBodies` kept, as UTF-8, once the route's guards (the
 * signature, the console's CSRF check) let the request through and before any pipe or handler
 * reads `body`. An empty body reads as `{}`, as clients that send none on a POST expect.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const req = context.switchToHttp().getRequest<BufferedRequest>();
      if (req.rawBody !== undefined) req.body = req.rawBody.length === 0 ? {} : parseJsonBody(utf8.decode(req.rawBody));
    }
    return next.handle();
  }
}
