import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const asset = (name: string) => readFileSync(join(__dirname, 'assets', name));

/**
 * The stylesheet's parts, kept apart by concern, in cascade order: a rule may override one of an
 * earlier part. They are served joined as one `console.css`, so a page loads one stylesheet.
 */
const STYLESHEET_PARTS = ['base', 'status', 'tables', 'forms', 'action', 'charts', 'tenants', 'narrow'].map((part) => `console-${part}.css`);

/** The console's only assets, read once at boot from `assets/` beside this file (nest build copies them). */
const ASSETS = new Map([
  ['console.css', { type: 'text/css; charset=utf-8', body: Buffer.concat(STYLESHEET_PARTS.map(asset)) }],
  ['console.js', { type: 'text/javascript; charset=utf-8', body: asset('console.js') }],
]);

/**
 * `/admin/assets/*`: the console's stylesheet and script, served by the API itself so the
 * console works without reaching the internet. Revalidated by ETag on every load.
 */
@ApiExcludeController()
@Controller('admin/assets')
export class ConsoleAssetsController {
  @Get(':name')
  serve(@Param('name') name: string, @Res() res: Response): void {
    const asset = ASSETS.get(name);
    if (!asset) throw new NotFoundException(`No console asset named ${name}`);
    res.setHeader('Cache-Control', 'no-cache');
    res.type(asset.type).send(asset.body);
  }
}
