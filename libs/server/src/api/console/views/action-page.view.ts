import { ActionEntity, HistoryRecord } from '@app/database';
import { ActionStatus, TERMINAL_STATUSES } from '@app/domain';
import { localTimeField } from './action-list.view';
import { csrfField, duration, fact, jsonBlock, statusBadge, timeTag } from './fragments';
import { MAX_SKIP_COUNT } from '../../actions/dto/skip-occurrences.dto';
import { calendarHref } from './calendars.view';
import { SafeHtml, html, segment } from './html';
import { Notice, noticeBox } from './layout.view';

export interface ActionPageData {
  action: ActionEntity;
  /** Oldest first, as the history is stored. */
  history: HistoryRecord[];
  /** The scheduled times from the current occurrence on, when the action repeats. */
  occurrences: Date[];
  /** Where the queue admin shows the action's job for its current attempt, when it may have one. */
  jobHref: string | null;
  controls: ActionControls;
  csrfToken: string;
  /** What the change the operator just made did, worded from the action's state now (the region it is in refreshes). */
  done?: Notice;
  /** Why the due action waits, when it is for a worker: none that is live serves its type, or none knows it. */
  workerWait: WorkerWait | null;
}

export type WorkerWait = 'unserved' | 'unknown';

function workerWaitNote(action: ActionEntity, wait: WorkerWait | null): SafeHtml | string {
  if (wait === 'unserved') {
    return html`<p class="worker-wait" role="note">
      <strong>Waiting for a worker:</strong> live workers know ${action.action} but none serves it (WORKER_ACTIONS). It runs once one does.
    </p>`;
  }
  if (wait === 'unknown') {
    return html`<p class="worker-wait" role="note">
      <strong>No live worker knows ${action.action}.</strong> It runs if a worker that knows it starts; once it has been due for UNKNOWN_TYPE_GRACE_MS with
      none knowing it, it ends NO_ACTION.
    </p>`;
  }
  return '';
}

/** Which of the operations the action's state allows now. */
export interface ActionControls {
  pause: boolean;
  resume: boolean;
  cancel: boolean;
  skip: boolean;
  retry: boolean;
  reschedule: boolean;
  delete: boolean;
}

function facts(a: ActionEntity): SafeHtml {
  return html`<dl class="facts">
      <div>
        <dt>Status</dt>
        <dd>${statusBadge(a.status)}</dd>
      </div>
      <div>
        <dt>Tenant</dt>
        <dd><a href="/admin/actions?tenant=${segment(a.tenantId)}">${a.tenantId}</a></dd>
      </div>
      <div>
        <dt>Type</dt>
        <dd><a href="/admin/actions?action=${segment(a.action)}">${a.action}</a></dd>
      </div>
      <div>
        <dt>Execution time</dt>
        <dd>${timeTag(a.executionTime)}</dd>
      </div>
      <div>
        <dt>Next attempt due</dt>
        <dd>${timeTag(a.nextAttemptAt)}</dd>
      </div>
      <div>
        <dt>Occurrence</dt>
        <dd>
          ${a.occurrence} <span class="muted">(idempotency key <code>${a.id}:${a.occurrence}</code>)</span>
        </dd>
      </div>
      ${fact('Paused', a.pausedFrom === null ? 'no' : html`yes <span class="muted">(from occurrence ${a.pausedFrom})</span>`)}
      ${fact('Cancellation requested', timeTag(a.cancelRequestedAt))} ${fact('Jitter', a.jitterMs === null ? 'none' : `up to ${duration(a.jitterMs)}`)}
      ${fact('DST policy', a.dstPolicy === null ? html`<span class="muted">—</span>` : `gap: ${a.dstPolicy.gap}, overlap: ${a.dstPolicy.overlap}`)}
      ${a.calendar === null ? '' : fact('Calendar', html`<a href="${calendarHref(a.tenantId, a.calendar)}">${a.calendar}</a>`)}
      <div>
        <dt>Failed attempts of this occurrence</dt>
        <dd>${a.retryCount}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>${timeTag(a.createdAt)}</dd>
      </div>
      <div>
        <dt>Updated</dt>
        <dd>${timeTag(a.updatedAt)}</dd>
      </div>
      ${
        a.finishedAt
          ? html`<div>
              <dt>Finished</dt>
              <dd>${timeTag(a.finishedAt)}</dd>
            </div>`
          : ''
      }
    </dl>
    ${
      a.lastError
        ? html`<h3>Last error</h3>
            <pre class="error-text">${a.lastError}</pre>`
        : ''
    }`;
}

function schedule(a: ActionEntity, occurrences: Date[]): SafeHtml {
  if (!a.repeat) return html`<p>Runs once, at its execution time.</p>`;
  return html`<dl class="facts">
      <div>
        <dt>${a.cron ? 'Cron' : 'Frequency'}</dt>
        <dd>${a.cron ? html`<code>${a.cron}</code>` : a.frequency}</dd>
      </div>
      <div>
        <dt>Executions left</dt>
        <dd>${a.executionRemainder === null ? 'no limit' : html`${a.executionRemainder} <span class="muted">(this one included)</span>`}</dd>
      </div>
      <div>
        <dt>Ends</dt>
        <dd>${a.endAt ? timeTag(a.endAt) : 'never'}</dd>
      </div>
      <div>
        <dt>Misfire policy</dt>
        <dd>${a.misfirePolicy}</dd>
      </div>
      <div>
        <dt>Zone</dt>
        <dd>${a.timezone ?? 'UTC'}</dd>
      </div>
    </dl>
    ${occurrences.length > 0 ? nextOccurrences(a, occurrences) : ''}`;
}

/** The scheduled times from the current occurrence on; those a pause holds say so, their time passed or not. */
function nextOccurrences(a: ActionEntity, occurrences: Date[]): SafeHtml {
  const held = (index: number) => a.pausedFrom !== null && a.occurrence + index >= a.pausedFrom;
  return html`<h3>Next occurrences</h3>
    ${
      a.pausedFrom === null
        ? ''
        : html`<p class="hint held-note">
            Paused from occurrence ${a.pausedFrom}: the occurrences marked held do not run until the action is resumed; those whose time has passed by then
            follow the misfire policy (${a.misfirePolicy}).
          </p>`
    }
    <ol class="occurrences">
      ${occurrences.map((time, index) => html`<li>${timeTag(time)}${held(index) ? html` <span class="held">held (paused)</span>` : ''}</li>`)}
    </ol>`;
}

/**
 * The controls the action's state allows (see `controlsFor`): one that could only be refused is
 * not offered. The service still decides when a form is sent, and a refusal comes back with its reason.
 */
function operations(a: ActionEntity, controls: ActionControls, csrfToken: string): SafeHtml {
  const base = `/admin/actions/${segment(a.id)}`;
  const forms = [
    controls.pause &&
      html`<form method="post" action="${base}/pause">
        ${csrfField(csrfToken)}
        <button type="submit">Pause</button>
        <p class="hint">Holds every later occurrence until resumed; one that is running or about to run finishes first.</p>
      </form>`,
    controls.resume &&
      html`<form method="post" action="${base}/resume">
        ${csrfField(csrfToken)}
        <button type="submit">Resume</button>
        <p class="hint">Runs again; an occurrence whose time passed while paused follows the misfire policy.</p>
      </form>`,
    controls.skip &&
      html`<form method="post" action="${base}/skip">
        ${csrfField(csrfToken)}
        <div class="field">
          <label for="count">Occurrences to skip</label>
          <input type="number" id="count" name="count" min="1" max="${MAX_SKIP_COUNT}" step="1" value="1" required />
        </div>
        <button type="submit">Skip</button>
      </form>`,
    controls.retry &&
      html`<form method="post" action="${base}/retry">
        ${csrfField(csrfToken)}
        <button type="submit">Retry</button>
        <p class="hint">Runs again now, as the same occurrence.</p>
      </form>`,
    controls.reschedule &&
      html`<form method="post" action="${base}/reschedule" data-local-times>
        ${csrfField(csrfToken)} ${localTimeField('executionTime', 'New execution time', a.executionTime)}
        <button type="submit">Reschedule</button>
      </form>`,
    cancelOperation(a, controls, base, csrfToken),
    controls.delete &&
      html`<form method="post" action="${base}/delete" data-confirm="Delete action ${a.id}? It will never run, and its history goes with it.">
        ${csrfField(csrfToken)}
        <button type="submit" class="danger">Delete</button>
        <p class="hint">A deleted action never runs.</p>
      </form>`,
  ];
  const offered = forms.filter((form): form is SafeHtml => form instanceof SafeHtml);
  return offered.length > 0
    ? html`<div class="operations">${offered}</div>`
    : html`<p class="muted">No operation applies to the action in its current state.</p>`;
}

function cancelOperation(a: ActionEntity, controls: ActionControls, base: string, csrfToken: string): SafeHtml | false {
  if (a.cancelRequestedAt && !TERMINAL_STATUSES.includes(a.status)) {
    return html`<p class="hint cancel-pending">
      Cancellation requested ${timeTag(a.cancelRequestedAt)}: occurrence ${a.occurrence} finishes first, then the action is CANCELED.
    </p>`;
  }
  return (
    controls.cancel &&
    html`<form method="post" action="${base}/cancel" data-confirm="Cancel action ${a.id}? It never runs again (a running occurrence finishes first).">
      ${csrfField(csrfToken)}
      <button type="submit" class="danger">Cancel</button>
      <p class="hint">Stops it for good, also inside the lock window: an occurrence that is running or about to run finishes first, without retries.</p>
    </form>`
  );
}

function historyEntry(entry: HistoryRecord): SafeHtml {
  const lag = entry.dueAt
    ? html`<span class="muted">, started ${duration(Date.parse(entry.at) - Date.parse(entry.dueAt))} after it became runnable</span>`
    : '';
  const transition = entry.from ? html`${statusBadge(entry.from)} → ${statusBadge(entry.to)}` : html`created ${statusBadge(entry.to)}`;
  return html`<li class="entry entry-${entry.to.toLowerCase()}">
    <div class="entry-head">${timeTag(new Date(entry.at))} ${transition}</div>
    <div class="muted">occurrence ${entry.occurrence}${entry.attempt > 0 ? `, attempt ${entry.attempt}` : ''}${lag}</div>
    ${entry.note ? html`<pre class="note${entry.to === ActionStatus.Failed ? ' error-text' : ''}">${entry.note}</pre>` : ''}
  </li>`;
}

/** Everything about one action, what it went through, and what can be done to it. */
export function actionPageView(data: ActionPageData): SafeHtml {
  const a = data.action;
  const job = data.jobHref ? html` · <a href="${data.jobHref}">its job in the queue admin</a>` : '';
  return html`<p class="breadcrumb"><a href="/admin/actions">Actions</a> › <code>${a.id}</code>${job}</p>
    <h1>Action <code class="id">${a.id}</code></h1>
    <div id="live-action" data-live>
      ${noticeBox(data.done)}
      <section aria-labelledby="state">
        <h2 id="state" class="visually-hidden">State</h2>
        ${workerWaitNote(a, data.workerWait)} ${facts(a)}
      </section>
    </div>
    <section aria-labelledby="ops">
      <h2 id="ops">Operations</h2>
      ${operations(a, data.controls, data.csrfToken)}
    </section>
    <section aria-labelledby="schedule">
      <h2 id="schedule">Schedule</h2>
      ${schedule(a, data.occurrences)}
    </section>
    <div class="columns">
      <section aria-labelledby="data">
        <h2 id="data">Data</h2>
        ${jsonBlock(a.data)}
      </section>
      <section aria-labelledby="metadata">
        <h2 id="metadata">Metadata</h2>
        ${jsonBlock(a.metadata)}
      </section>
    </div>
    <section aria-labelledby="history" id="live-history" data-live>
      <h2 id="history">History <span class="muted">(${data.history.length} entries, newest first)</span></h2>
      <ol class="timeline" reversed>
        ${[...data.history].reverse().map(historyEntry)}
      </ol>
    </section>`;
}
