// The console's progressive enhancement. Every page works without it (times then read in UTC,
// and nothing refreshes by itself); with it, times read in the browser's zone, datetime fields
// are filled and sent in that zone, destructive forms ask first, and live regions refresh.
(function () {
  'use strict';

  var REFRESH_MS = 10000;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
  var formatter = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

  function pad(n) {
    return String(n).padStart(2, '0');
  }

  /** A Date as a datetime-local value in the browser's zone. */
  function localValue(date) {
    return (
      date.getFullYear() +
      '-' +
      pad(date.getMonth() + 1) +
      '-' +
      pad(date.getDate()) +
      'T' +
      pad(date.getHours()) +
      ':' +
      pad(date.getMinutes()) +
      ':' +
      pad(date.getSeconds())
    );
  }

  /** <time> elements: the text in the browser's zone; the tooltip keeps UTC, as the server wrote it. */
  function localizeTimes(root) {
    root.querySelectorAll('time[datetime]').forEach(function (element) {
      var date = new Date(element.getAttribute('datetime'));
      if (isNaN(date.getTime())) return;
      element.textContent = formatter.format(date);
      element.title = element.title + ' (shown in ' + zone + ')';
    });
  }

  /** datetime-local fields: shown and typed in the browser's zone, sent as UTC instants. */
  function localizeFields(root) {
    root.querySelectorAll('input[type="datetime-local"][data-utc-value]').forEach(function (input) {
      var utc = input.getAttribute('data-utc-value');
      if (utc) input.value = localValue(new Date(utc));
    });
    root.querySelectorAll('[data-zone-label]').forEach(function (label) {
      label.textContent = '(' + zone + ')';
    });
    root.querySelectorAll('form[data-local-times]').forEach(function (form) {
      form.addEventListener('submit', function () {
        form.querySelectorAll('input[type="datetime-local"]').forEach(function (input) {
          if (!input.value || !input.name) return;
          var instant = new Date(input.value);
          if (isNaN(instant.getTime())) return;
          var hidden = document.createElement('input');
          hidden.type = 'hidden';
          hidden.name = input.name;
          hidden.value = instant.toISOString();
          input.removeAttribute('name');
          form.appendChild(hidden);
        });
      });
    });
  }

  function confirmDestructive(root) {
    root.querySelectorAll('form[data-confirm]').forEach(function (form) {
      form.addEventListener('submit', function (event) {
        if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
      });
    });
  }

  /** Regions marked data-live are fetched again and swapped in place, while the tab is visible. */
  function refreshLiveRegions() {
    var regions = document.querySelectorAll('[data-live][id]');
    if (regions.length === 0) return;
    setInterval(function () {
      if (document.hidden) return;
      fetch(window.location.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
        .then(function (response) {
          return response.ok ? response.text() : null;
        })
        .then(function (text) {
          if (!text) return;
          var fresh = new DOMParser().parseFromString(text, 'text/html');
          regions = document.querySelectorAll('[data-live][id]');
          regions.forEach(function (region) {
            var replacement = fresh.getElementById(region.id);
            if (!replacement) return;
            // Keep open what the reader opened.
            region.querySelectorAll('details[id][open]').forEach(function (open) {
              var same = replacement.querySelector('#' + open.id);
              if (same) same.setAttribute('open', '');
            });
            localizeTimes(replacement);
            region.replaceWith(document.importNode(replacement, true));
          });
        })
        .catch(function () {
          // The next tick tries again; a page that cannot refresh still shows what it had.
        });
    }, REFRESH_MS);
  }

  document.addEventListener('DOMContentLoaded', function () {
    localizeTimes(document);
    localizeFields(document);
    confirmDestructive(document);
    refreshLiveRegions();
  });
})();
