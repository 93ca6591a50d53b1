import { CalendarRecord } from '@app/database';
import { CALENDAR_NAME_RULE } from '../../actions/dto/calendar-name';
import { count, csrfField, dataTable, fact, timeTag } from './fragments';
import { SafeHtml, html, queryString, segment } from './html';
import { TenantFilter, tenantFilterForm } from './tenant-filter.view';

/** What the form shows: empty, or what was sent when it was refused, so it can be corrected. */
export interface CalendarForm {
  tenant: string;
  name: string;
  description: string;
  dates: string;
}

/** What the page lists: one page of calendars (the one after `cursor`), or the calendar `only` names. */
export interface CalendarsShown {
  items: CalendarRecord[];
  nextCursor: string | null;
  cursor?: string;
  only?: string;
}

/** An empty form, for a calendar of `tenant`. */
export function emptyCalendarForm(tenant: string): CalendarForm {
  return { tenant, name: '', description: '', dates: '' };
}

/** The form filled with a calendar as stored, to be changed and saved over it: one date a line. */
export function calendarForm(c: CalendarRecord): CalendarForm {
  return { tenant: c.tenantId, name: c.name, description: c.description ?? '', dates: c.dates.join('\n') };
}

/**
 * The element id of a calendar's section, for links from an action's page; no other id on the
 * page starts with `calendar-`. A tenant's id has no `.`, so no two calendars share one.
 */
export function calendarAnchor(tenant: string, name: string): string {
  return `calendar-${tenant}.${name}`;
}

/** The calendars page showing that calendar alone, whichever page of its tenant's it would fall on. */
export function calendarHref(tenant: string, name: string): string {
  return `/admin/calendars${queryString({ tenant, name })}#${calendarAnchor(tenant, name)}`;
}

/** Back to the first page (or to every calendar from one of them), and on to the next page, keeping the tenant filter. */
function pager(shown: CalendarsShown, tenant: string | undefined): SafeHtml {
  const first =
    shown.cursor || shown.only ? html`<a href="/admin/calendars${queryString({ tenant })}">${shown.only ? 'Every calendar' : 'First page'}</a>` : '';
  const next = shown.nextCursor
    ? html`<a class="button" rel="next" href="/admin/calendars${queryString({ tenant, cursor: shown.nextCursor })}">Next page</a>`
    : '';
  return html`<nav class="pager" aria-label="Pages">${first} ${next}</nav>`;
}

// Fixed names, so a date reads the same whatever the server's locale.
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Fri 25 Dec`: the weekday says at a glance whether a holiday falls on a weekend. The year heads its row. */
function dayText(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  return `${WEEKDAYS[day.getUTCDay()]} ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`;
}

/** The dates (in order, as stored) by year. */
function byYear(dates: readonly string[]): Map<string, string[]> {
  const years = new Map<string, string[]>();
  for (const date of dates) {
    const year = date.slice(0, 4);
    const days = years.get(year) ?? [];
    days.push(date);
    years.set(year, days);
  }
  return years;
}

function datesTable(dates: readonly string[]): SafeHtml {
  if (dates.length === 0) return html`<p class="muted">No date: no occurrence is skipped.</p>`;
  const rows = [...byYear(dates)].map(
    ([year, days]) =>
      html`<tr data-year="${year}">
        <th scope="row">${year}</th>
        <td>${days.length}</td>
        <td>${days.map((date, i) => html`${i > 0 ? ', ' : ''}<span title="${date}">${dayText(date)}</span>`)}</td>
      </tr>`,
  );
  return dataTable(['Year', 'Count', 'Dates'], rows, 'calendar-dates');
}

function calendarSection(c: CalendarRecord, csrfToken: string): SafeHtml {
  return html`<section
    class="calendar"
    id="${calendarAnchor(c.tenantId, c.name)}"
    data-calendar="${c.name}"
    data-tenant="${c.tenantId}"
    aria-label="Calendar ${c.name} of ${c.tenantId}"
  >
    <h2><code>${c.name}</code></h2>
    ${c.description ? html`<p>${c.description}</p>` : ''}
    <dl class="facts">
      ${fact('Tenant', html`<a href="/admin/calendars?tenant=${segment(c.tenantId)}">${c.tenantId}</a>`)} ${fact('Dates', count(c.dates.length))}
      ${fact('Updated', timeTag(c.updatedAt))}
    </dl>
    ${datesTable(c.dates)}
    <p>
      <a
        class="button"
        href="/admin/calendars${queryString({ tenant: c.tenantId, name: c.name, edit: '1' })}#put-calendar"
        aria-label="Edit ${c.name} of ${c.tenantId}"
        >Edit</a
      >
    </p>
    <form
      method="post"
      action="/admin/calendars/${segment(c.tenantId)}/${segment(c.name)}/delete"
      data-confirm="Delete calendar ${c.name} of tenant ${c.tenantId}? It is refused while an action of that tenant names it."
    >
      ${csrfField(csrfToken)}
      <p><button type="submit" class="danger" aria-label="Delete ${c.name} of ${c.tenantId}">Delete</button></p>
    </form>
  </section>`;
}

function putForm(form: CalendarForm, tenants: string[], csrfToken: string): SafeHtml {
  const tenantOption = (t: string) => html`<option value="${t}" ${t === form.tenant ? html` selected` : ''}>${t}</option>`;
  return html`<section aria-labelledby="put-calendar">
    <h2 id="put-calendar">Create or replace a calendar</h2>
    <form method="post" action="/admin/calendars" class="filters">
      ${csrfField(csrfToken)}
      <div class="field">
        <label for="put-calendar-tenant">Tenant</label>
        <select id="put-calendar-tenant" name="tenant">
          ${tenants.map(tenantOption)}
        </select>
      </div>
      <div class="field">
        <label for="put-calendar-name">Name</label>
        <input
          id="put-calendar-name"
          name="name"
          value="${form.name}"
          required
          maxlength="64"
          pattern="[A-Za-z0-9_\\-]{1,64}"
          title="${CALENDAR_NAME_RULE}"
        />
      </div>
      <div class="field field-wide">
        <label for="put-calendar-description">Description</label>
        <input id="put-calendar-description" name="description" value="${form.description}" maxlength="1000" />
      </div>
      <div class="field field-wide">
        <label for="put-calendar-dates">Dates</label>
        <textarea id="put-calendar-dates" name="dates" rows="4" cols="44" placeholder="2027-01-01, 2027-12-25">${form.dates}</textarea>
      </div>
      <button type="submit">Save</button>
      <p class="hint">
        Dates as YYYY-MM-DD, separated by spaces, commas or new lines. A calendar is its tenant's: only that tenant's actions can name it. Saving an
        existing name of the tenant replaces its dates and description; every occurrence still to come follows the new dates.
      </p>
    </form>
  </section>`;
}

/** A page of the calendars of every tenant or of one, each with its dates, the form that creates or replaces one, and deletion of each. */
export function calendarsView(shown: CalendarsShown, form: CalendarForm, tenant: TenantFilter, csrfToken: string): SafeHtml {
  return html`<h1>Calendars</h1>
    ${tenantFilterForm('/admin/calendars', tenant)}
    <p class="muted">
      Named sets of local dates, such as public holidays. A repeating action that names a calendar skips the occurrences that fall on its dates, in the
      action's zone. A calendar can be deleted only once no action names it.
    </p>
    ${putForm(form, tenant.tenants, csrfToken)}
    ${shown.items.length === 0 ? html`<p class="muted">No calendar.</p>` : shown.items.map((c) => calendarSection(c, csrfToken))}
    ${pager(shown, tenant.selected)}`;
}
