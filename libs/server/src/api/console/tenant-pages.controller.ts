import { BadRequestException, Body, Controller, Get, HttpStatus, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { PunctualConfig } from '@app/config';
import { TENANT_ID_RULE, isTenantId } from '@app/domain';
import { CreateTenantDto, UpdateTenantDto } from '../admin-api/dto/tenant.dto';
import { CreatedKey, TenantsAdminService } from '../admin-api/tenants-admin.service';
import { ERROR_ANSWERS } from '../errors/error-replies';
import { ApiKeyConfiguredError, ApiKeyNotFoundError, SecretKeyNotConfiguredError, TenantExistsError, TenantNotFoundError } from '../errors/tenant.errors';
import { validated } from '../rpc/rpc-input';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { ConsoleInputError, RawInput, parseTenantId, textField } from './console-input';
import { ConsoleSessionDigest } from './security/console-session.decorator';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfToken } from './security/csrf-token.decorator';
import { queryString } from './views/html';
import { Notice, layout, sendPage } from './views/layout.view';
import {
  EMPTY_TENANT_FORM,
  LimitDefaults,
  LimitFields,
  LimitName,
  MessagingFields,
  NewTenantForm,
  TenantsPageData,
  tenantAnchor,
  tenantsView,
} from './views/tenants.view';

/** A key's id as a path or a redirect names it: what the admin API makes (`key_…`), or one of `API_KEYS`; never free text. */
const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const LIMIT_NAMES: readonly LimitName[] = ['maxActiveActions', 'createRate', 'maxConcurrency'];
/** A whole number as a number field sends it; anything else goes to the DTO as it was typed, for it to refuse with its reason. */
const WHOLE_NUMBER = /^-?\d{1,15}$/;
/** Transport names are those of MESSAGE_TRANSPORTS, which hold no space or comma. */
const TRANSPORT_SEPARATORS = /[\s,]+/;
/** How long after its key is made the page the browser is sent on to may show the secret: that page follows at once. */
const KEY_REVEAL_MS = 2 * 60_000;

interface Refusal {
  status: HttpStatus;
  notice: Notice;
}

/** What else the page shows: what was refused (to correct), or the key just made. */
type Extras = Partial<Pick<TenantsPageData, 'newTenant' | 'refusedLimits' | 'refusedMessaging' | 'newKey'>>;

function parseKeyId(value: string): string {
  if (!KEY_ID.test(value)) throw new ConsoleInputError('keyId', "must be an API key's id");
  return value;
}

function limitFieldsOf(body: RawInput): LimitFields {
  const fields = {} as LimitFields;
  for (const name of LIMIT_NAMES) fields[name] = textField(body, name) ?? '';
  return fields;
}

/** The fields as the admin API's `limits`: empty is null (the deployment's default). */
function limitsOf(fields: LimitFields): Record<LimitName, number | string | null> {
  const limits = {} as Record<LimitName, number | string | null>;
  for (const name of LIMIT_NAMES) {
    const value = fields[name];
    limits[name] = value === '' ? null : WHOLE_NUMBER.test(value) ? Number(value) : value;
  }
  return limits;
}

/** The fields as the admin API's `messaging`: transports between spaces or commas, a pattern per line, blank lines left out. */
function messagingOf(fields: MessagingFields): { transports: string[]; patterns: string[] } {
  return {
    transports: fields.transports.split(TRANSPORT_SEPARATORS).filter(Boolean),
    patterns: fields.patterns
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  };
}

/** The tenant id or key id a redirect names, so its notice only ever names one. */
function redirected(query: RawInput, field: string, valid: (value: string) => boolean, what: string): string | undefined {
  const value = textField(query, field);
  if (value !== undefined && !valid(value)) throw new ConsoleInputError(field, `must be ${what}`);
  return value;
}

function doneNotice(query: RawInput): Notice | undefined {
  const tenantId = `a tenant's id (${TENANT_ID_RULE})`;
  const created = redirected(query, 'created', isTenantId, tenantId);
  if (created) return { kind: 'success', text: `Created tenant ${created}. Make its first key below.` };
  const changed = redirected(query, 'changed', isTenantId, tenantId);
  if (changed) return { kind: 'success', text: `Saved the limits of tenant ${changed}: every API process holds its creates to them within a second.` };
  const messaging = redirected(query, 'messaging', isTenantId, tenantId);
  if (messaging) {
    return {
      kind: 'success',
      text: `Saved what tenant ${messaging} may message: every API process and worker holds its MESSAGE actions to it within two seconds.`,
    };
  }
  const revoked = redirected(query, 'revoked', (value) => KEY_ID.test(value), "an API key's id");
  if (revoked) return { kind: 'success', text: `Revoked key ${revoked}: every API process refuses requests signed with it within seconds.` };
  return undefined;
}

/** What the admin API refuses a change with (a bad field, an id taken or unknown, a key of API_KEYS, no SECRET_KEY), as the reason to show with its status; other errors go on. */
function refusalFor(error: unknown): Refusal {
  if (error instanceof BadRequestException) {
    const { message } = error.getResponse() as { message: string | string[] };
    return { status: error.getStatus(), notice: { kind: 'error', text: [message].flat().join('; ') } };
  }
  if (
    error instanceof TenantExistsError ||
    error instanceof TenantNotFoundError ||
    error instanceof ApiKeyNotFoundError ||
    error instanceof ApiKeyConfiguredError ||
    error instanceof SecretKeyNotConfiguredError
  ) {
    return { status: ERROR_ANSWERS[error.code].status, notice: { kind: 'error', text: error.message } };
  }
  throw error;
}

async function refusalOf(apply: () => Promise<unknown>): Promise<Refusal | null> {
  try {
    await apply();
    return null;
  } catch (error) {
    return refusalFor(error);
  }
}

/**
 * `/admin/tenants`: every tenant with its quota use, its limits (its own or the deployment's), what
 * it may message, and its keys; creating tenants, changing their limits and messaging, making and revoking keys, through the same
 * `TenantsAdminService` and DTOs as the admin API. A refusal shows the page again with its reason
 * and status, and changes nothing. A change redirects, so a reload does not send it again. A new
 * key's secret is shown by the page that redirect leads to, to the console session that made the
 * key alone and once: never in a URL, a cookie or a log.
 */
@ApiExcludeController()
@Controller('admin/tenants')
@UseFilters(ConsoleExceptionFilter)
export class TenantPagesController {
  private readonly defaults: LimitDefaults;
  private readonly transports: string[];

  constructor(
    private readonly tenants: TenantsAdminService,
    config: PunctualConfig,
  ) {
    this.defaults = config.tenantDefaults;
    this.transports = [...config.message.transports.keys()].sort();
  }

  @Get()
  async index(@Query() query: RawInput, @CsrfToken() csrfToken: string, @ConsoleSessionDigest() session: string, @Res() res: Response): Promise<void> {
    const madeKey = redirected(query, 'key', (value) => KEY_ID.test(value), "an API key's id");
    if (madeKey === undefined) return this.send(res, HttpStatus.OK, csrfToken, doneNotice(query));
    await this.showMadeKey(res, csrfToken, madeKey, session);
  }

  @Post()
  @UseGuards(CsrfGuard)
  async create(@Body() body: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const form: NewTenantForm = { id: textField(body, 'id') ?? '', limits: limitFieldsOf(body) };
    const refusal = await refusalOf(async () => {
      const dto = await validated(CreateTenantDto, { id: form.id, limits: limitsOf(form.limits) });
      await this.tenants.create(dto.id, dto.limits);
    });
    // Back to a page that a reload does not send again.
    if (!refusal) return this.redirect(res, { created: form.id }, form.id);
    await this.send(res, refusal.status, csrfToken, refusal.notice, { newTenant: form });
  }

  @Post(':id/limits')
  @UseGuards(CsrfGuard)
  async setLimits(@Param('id') rawId: string, @Body() body: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const id = parseTenantId(rawId, 'id');
    const limits = limitFieldsOf(body);
    const refusal = await refusalOf(async () => {
      const dto = await validated(UpdateTenantDto, { limits: limitsOf(limits) });
      await this.tenants.update(id, { limits: dto.limits });
    });
    if (!refusal) return this.redirect(res, { changed: id }, id);
    await this.send(res, refusal.status, csrfToken, refusal.notice, { refusedLimits: { tenant: id, limits } });
  }

  /** Sets what the tenant may message, or, with `reset`, forgets the grant (the tenant default then reaches everything again). */
  @Post(':id/messaging')
  @UseGuards(CsrfGuard)
  async setMessaging(@Param('id') rawId: string, @Body() body: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const id = parseTenantId(rawId, 'id');
    const fields: MessagingFields = { transports: textField(body, 'transports') ?? '', patterns: textField(body, 'patterns') ?? '' };
    const refusal = await refusalOf(async () => {
      const dto = await validated(UpdateTenantDto, { messaging: textField(body, 'reset') === 'everything' ? null : messagingOf(fields) });
      await this.tenants.update(id, { messaging: dto.messaging });
    });
    if (!refusal) return this.redirect(res, { messaging: id }, id);
    await this.send(res, refusal.status, csrfToken, refusal.notice, { refusedMessaging: { tenant: id, fields } });
  }

  @Post(':id/keys')
  @UseGuards(CsrfGuard)
  async createKey(
    @Param('id') rawId: string,
    @CsrfToken() csrfToken: string,
    @ConsoleSessionDigest() session: string,
    @Res() res: Response,
  ): Promise<void> {
    const id = parseTenantId(rawId, 'id');
    let key: CreatedKey;
    try {
      key = await this.tenants.createKey(id, { to: session, forMs: KEY_REVEAL_MS });
    } catch (error) {
      const refusal = refusalFor(error);
      return this.send(res, refusal.status, csrfToken, refusal.notice);
    }
    // The page it leads to shows the secret, taken from storage; the URL names the key alone.
    this.redirect(res, { key: key.keyId }, id);
  }

  @Post(':id/keys/:keyId/revoke')
  @UseGuards(CsrfGuard)
  async revokeKey(@Param('id') rawId: string, @Param('keyId') rawKeyId: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const id = parseTenantId(rawId, 'id');
    const keyId = parseKeyId(rawKeyId);
    const refusal = await refusalOf(() => this.tenants.revokeKey(id, keyId));
    if (!refusal) return this.redirect(res, { revoked: keyId }, id);
    await this.send(res, refusal.status, csrfToken, refusal.notice);
  }

  /** The page after making a key: with its secret the first time this session asks, with its id alone after that. */
  private async showMadeKey(res: Response, csrfToken: string, keyId: string, session: string): Promise<void> {
    const newKey = await this.tenants.revealKey(keyId, session);
    if (newKey) {
      const text = `Made key ${keyId} for tenant ${newKey.tenant}. Copy its secret now: it is shown only on this page.`;
      return this.send(res, HttpStatus.OK, csrfToken, { kind: 'success', text }, { newKey });
    }
    const tenant = (await this.tenants.list()).find((t) => t.keys.some((key) => key.keyId === keyId));
    const made = tenant ? `Made key ${keyId} for tenant ${tenant.id}. ` : '';
    const text = `${made}Its secret is shown only once: if it was not copied, make another key and revoke this one.`;
    await this.send(res, HttpStatus.OK, csrfToken, { kind: 'success', text });
  }

  private redirect(res: Response, done: Record<string, string>, tenant: string): void {
    res.redirect(HttpStatus.SEE_OTHER, `/admin/tenants${queryString(done)}#${tenantAnchor(tenant)}`);
  }

  private async send(res: Response, status: HttpStatus, csrfToken: string, notice?: Notice, extras: Extras = {}): Promise<void> {
    const data: TenantsPageData = {
      tenants: await this.tenants.list(),
      defaults: this.defaults,
      transports: this.transports,
      newTenant: EMPTY_TENANT_FORM,
      csrfToken,
      ...extras,
    };
    sendPage(res, status, layout({ title: 'Tenants', section: 'tenants', notice, body: tenantsView(data) }));
  }
}
