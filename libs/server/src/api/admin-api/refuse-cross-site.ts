import { Logger } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { crossSiteReason } from '../admin/cross-site';

const logger = new Logger('AdminApi');

/**
 * Refuses (403) every admin API request a browser marks as sent by another site's page, with the
 * console's rule: a page elsewhere could make the browser send it with an operator's cached login.
 * Operators' scripts send none of those headers, and pages of this service may call it.
 */
export function refuseCrossSite(req: Request, res: Response, next: NextFunction): void {
  const reason = crossSiteReason(req);
  if (!reason) return next();
  logger.warn(`Refused ${req.method} ${req.path}: ${reason}`);
  res.status(403).json({
    statusCode: 403,
    error: 'Forbidden',
    message: `This request was refused because ${reason}: the admin API serves operators' scripts and this service's own pages, never a page of another site. Call it from a script, or use the console at /admin.`,
  });
}
