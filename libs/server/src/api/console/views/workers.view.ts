import { LiveWorker } from '@app/database';
import { count, dataTable, timeTag } from './fragments';
import { SafeHtml, html } from './html';

function typeList(types: readonly string[]): SafeHtml {
  return types.length === 0 ? html`<span class="muted">none</span>` : html`${types.join(', ')}`;
}

/** Each live worker: who it is, the types it knows and serves, its concurrency, its last heartbeat and the attempts it runs. */
export function workersView(workers: readonly LiveWorker[]): SafeHtml {
  const rows = workers.map(
    (worker) =>
      html`<tr data-worker="${worker.id}">
        <th scope="row"><code>${worker.id}</code><br />${worker.host} <span class="muted">(pid ${String(worker.pid)})</span></th>
        <td>${typeList(worker.knows)}</td>
        <td>${typeList(worker.serves)}</td>
        <td>${count(worker.concurrency)}</td>
        <td>${count(worker.running)}</td>
        <td>${timeTag(worker.heartbeatAt)}</td>
        <td>${timeTag(worker.startedAt)}</td>
      </tr>`,
  );
  return html`<h1>Workers</h1>
    <p>
      The workers running now, as each declares itself every few seconds: the action types its registry knows, the ones it serves, how many attempts it
      runs at once per type and runs now. An action of a type no live worker knows ends NO_ACTION once it has been due for UNKNOWN_TYPE_GRACE_MS; one of a
      type known but served by none waits for a worker that serves it.
    </p>
    <div data-live>
      ${
        rows.length === 0
          ? html`<p class="muted">No live worker.</p>`
          : dataTable(['Worker', 'Knows', 'Serves', 'Concurrency', 'Running', 'Last heartbeat', 'Started'], rows)
      }
    </div>`;
}
