/**
 * The dashboard's style sheet, served at `/dashboard/assets/styles.css`.
 *
 * A string because the package may be imported from a URL and can never read
 * its own files. Keep backticks and `${` out of it.
 *
 * @module
 */

/** The CSS source of the dashboard's style sheet. */
export const stylesCss: string = String.raw`
/* Strata dashboard: neutral, system font, readable from 320 px up. */
:root {
  color-scheme: light dark;
  --bg: #f5f6f8;
  --surface: #ffffff;
  --surface-2: #f0f2f5;
  --text: #1c2230;
  --muted: #5a6475;
  --border: #d8dce3;
  --accent: #2d5bd0;
  --accent-hover: #2149ad;
  --accent-text: #ffffff;
  --danger: #b42318;
  --danger-hover: #912018;
  --danger-bg: #fdecea;
  --ok: #18794e;
  --focus: #2d5bd0;
  --radius: 8px;
  --shadow: 0 1px 2px rgb(16 24 40 / 0.06), 0 1px 3px rgb(16 24 40 / 0.08);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue",
    Arial, sans-serif;
  font-size: 100%;
  line-height: 1.5;
  color: var(--text);
  background: var(--bg);
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #13161b;
    --surface: #1c2027;
    --surface-2: #242932;
    --text: #e5e8ec;
    --muted: #9ba4b3;
    --border: #363c47;
    --accent: #7b9bff;
    --accent-hover: #9bb3ff;
    --accent-text: #0b1020;
    --danger: #ff8b80;
    --danger-hover: #ffaaa1;
    --danger-bg: #3b1e1c;
    --ok: #5fd39a;
    --focus: #9bb3ff;
    --shadow: none;
  }
}

*,
*::before,
*::after {
  box-sizing: border-box;
}

html,
body {
  margin: 0;
  min-height: 100%;
}

body {
  min-height: 100vh;
}

a {
  color: var(--accent);
}

a:hover {
  color: var(--accent-hover);
}

:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
  border-radius: 4px;
}

h1:focus,
main:focus {
  outline: none;
}

h1 {
  font-size: 1.5rem;
  line-height: 1.25;
  margin: 0 0 1rem;
}

h2 {
  font-size: 1.125rem;
  margin: 0;
}

.visually-hidden {
  position: absolute !important;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}

/* Header */

.topbar {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1.5rem;
  padding: 0.75rem 1.5rem;
  background: var(--surface);
  border-bottom: 1px solid var(--border);
}

.brand {
  display: inline-flex;
  align-items: center;
  gap: 0.5rem;
  font-weight: 700;
  font-size: 1.125rem;
  color: var(--text);
  text-decoration: none;
}

.brand:hover {
  color: var(--text);
}

.brand-mark {
  display: inline-block;
  width: 1.25rem;
  height: 1.25rem;
  border-radius: 4px;
  background: linear-gradient(
    180deg,
    var(--accent) 0 30%,
    transparent 30% 35%,
    var(--accent) 35% 65%,
    transparent 65% 70%,
    var(--accent) 70%
  );
}

.topnav {
  display: flex;
  gap: 0.25rem;
  flex: 1 1 auto;
}

.topnav a {
  padding: 0.375rem 0.75rem;
  border-radius: var(--radius);
  color: var(--muted);
  text-decoration: none;
  font-weight: 500;
}

.topnav a:hover {
  color: var(--text);
  background: var(--surface-2);
}

.topnav a[aria-current="page"] {
  color: var(--text);
  background: var(--surface-2);
}

.session {
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin-left: auto;
}

.signed-in {
  color: var(--muted);
  font-size: 0.875rem;
  overflow-wrap: anywhere;
}

/* Loading indicator: shown only when loading takes a moment. */

.status {
  position: fixed;
  top: 0.75rem;
  left: 50%;
  transform: translateX(-50%);
  z-index: 10;
  margin: 0;
  padding: 0.25rem 0.75rem;
  border-radius: 999px;
  background: var(--text);
  color: var(--bg);
  font-size: 0.875rem;
  pointer-events: none;
}

.status:empty {
  display: none;
}

.status:not(:empty) {
  animation: appear 150ms ease-out 400ms both;
}

@keyframes appear {
  from {
    opacity: 0;
  }
  to {
    opacity: 1;
  }
}

/* Main area */

.main {
  padding: 1.5rem;
  max-width: 80rem;
  margin: 0 auto;
}

.card {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: calc(var(--radius) * 1.5);
  box-shadow: var(--shadow);
  padding: 1.5rem;
}

.card-narrow {
  max-width: 26rem;
  margin: 2rem auto;
}

.card-medium {
  max-width: 36rem;
  margin: 0 auto;
}

.intro {
  color: var(--muted);
  margin: -0.5rem 0 1.25rem;
  overflow-wrap: anywhere;
}

.empty {
  color: var(--muted);
}

.layout {
  display: grid;
  grid-template-columns: 14rem minmax(0, 1fr);
  gap: 1.5rem;
  align-items: start;
}

.sidebar {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: calc(var(--radius) * 1.5);
  padding: 0.75rem;
}

.sidebar-title {
  font-size: 0.75rem;
  text-transform: uppercase;
  letter-spacing: 0.06em;
  color: var(--muted);
  padding: 0.25rem 0.5rem 0.5rem;
}

.sidebar ul {
  list-style: none;
  margin: 0;
  padding: 0;
}

.sidebar a {
  display: block;
  padding: 0.375rem 0.5rem;
  border-radius: var(--radius);
  color: var(--text);
  text-decoration: none;
  overflow-wrap: anywhere;
}

.sidebar a:hover {
  background: var(--surface-2);
}

.sidebar a[aria-current="page"] {
  background: var(--accent);
  color: var(--accent-text);
}

.content {
  min-width: 0;
}

/* Forms */

.form {
  display: grid;
  gap: 1rem;
}

.field {
  display: grid;
  gap: 0.25rem;
}

.field label {
  font-weight: 600;
  font-size: 0.9375rem;
}

/* Required fields: the mark is decoration, aria-required carries the fact. */
.field:has(> [aria-required="true"]) > label::after {
  content: " *" / "";
  color: var(--danger);
}

.field-check {
  grid-template-columns: auto 1fr;
  align-items: center;
  column-gap: 0.5rem;
}

.field-check label {
  font-weight: 500;
}

.field-check .field-error,
.field-check .hint {
  grid-column: 1 / -1;
}

input,
select,
button,
textarea {
  font: inherit;
  color: inherit;
}

input[type="text"],
input[type="email"],
input[type="password"],
input[type="search"],
input[type="number"],
input[type="date"],
input[type="time"],
input[type="datetime-local"],
select {
  width: 100%;
  min-height: 2.5rem;
  padding: 0.4375rem 0.625rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--surface);
}

select[multiple] {
  min-height: 0;
  padding: 0.25rem;
}

input[type="checkbox"] {
  width: 1.125rem;
  height: 1.125rem;
  margin: 0;
  accent-color: var(--accent);
}

input:disabled,
select:disabled {
  opacity: 0.6;
}

input[aria-invalid="true"],
select[aria-invalid="true"] {
  border-color: var(--danger);
}

.field-error {
  margin: 0;
  color: var(--danger);
  font-size: 0.875rem;
}

.hint {
  margin: 0;
  color: var(--muted);
  font-size: 0.875rem;
}

.actions {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: flex-end;
  gap: 0.5rem;
}

.saved {
  margin: 0 auto 0 0;
  color: var(--ok);
  font-weight: 500;
}

.alert {
  margin: 0 0 1rem;
  padding: 0.625rem 0.875rem;
  border-radius: var(--radius);
}

.form .alert {
  margin: 0;
}

.form-alert:empty {
  display: none;
}

.alert-error {
  color: var(--danger);
  background: var(--danger-bg);
  border: 1px solid var(--danger);
}

.alert-success {
  color: var(--ok);
  border: 1px solid var(--ok);
}

/* Account pages: links under a form, recovery codes, API tokens */

.links {
  margin: 1rem 0 0;
}

.recovery-codes {
  columns: 2;
  padding-left: 1.25rem;
}

.token-list {
  padding-left: 1.25rem;
}

.token-list li {
  margin: 0 0 0.5rem;
}

[data-testid="totp-qr"] {
  display: block;
  margin: 0.5rem 0 1rem;
}

.card + .card {
  margin-top: 1rem;
}

/* Buttons */

.button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.375rem;
  min-height: 2.5rem;
  padding: 0.4375rem 1rem;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--surface);
  color: var(--text);
  font-weight: 500;
  line-height: 1.2;
  cursor: pointer;
  white-space: nowrap;
}

.button:hover:not(:disabled) {
  background: var(--surface-2);
}

.button:disabled {
  cursor: not-allowed;
  opacity: 0.5;
}

.button-primary {
  background: var(--accent);
  border-color: var(--accent);
  color: var(--accent-text);
}

.button-primary:hover:not(:disabled) {
  background: var(--accent-hover);
  border-color: var(--accent-hover);
}

.button-danger {
  background: var(--surface);
  border-color: var(--danger);
  color: var(--danger);
}

.button-danger:hover:not(:disabled) {
  background: var(--danger-bg);
}

.dialog .button-danger {
  background: var(--danger);
  color: var(--surface);
}

.dialog .button-danger:hover:not(:disabled) {
  background: var(--danger-hover);
  border-color: var(--danger-hover);
}

.button-quiet {
  border-color: transparent;
  background: transparent;
}

.button-small {
  min-height: 2rem;
  padding: 0.25rem 0.625rem;
  font-size: 0.875rem;
}

.button-icon {
  min-width: 2.5rem;
  padding: 0;
  font-size: 1.5rem;
  line-height: 1;
}

/* Collection toolbar, table, pagination */

.toolbar {
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: 0.75rem 1rem;
  margin-bottom: 1rem;
}

.filter {
  display: grid;
  gap: 0.25rem;
  flex: 1 1 18rem;
}

.filter label,
.locale label {
  font-weight: 600;
  font-size: 0.9375rem;
}

.filter-row {
  display: flex;
  gap: 0.5rem;
}

.filter-row input {
  flex: 1 1 auto;
  min-width: 0;
}

.locale {
  display: grid;
  gap: 0.25rem;
}

.locale select {
  width: auto;
  min-width: 6rem;
}

.toolbar > .button-primary {
  margin-left: auto;
}

.count {
  margin: 0 0 0.5rem;
  color: var(--muted);
  font-size: 0.875rem;
}

.table-wrap {
  /* Contains the visually hidden header text, which would widen the page. */
  position: relative;
  overflow-x: auto;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: calc(var(--radius) * 1.5);
  box-shadow: var(--shadow);
}

.records {
  width: 100%;
  border-collapse: collapse;
  font-size: 0.9375rem;
}

.records th,
.records td {
  padding: 0.5rem 0.75rem;
  text-align: left;
  border-bottom: 1px solid var(--border);
  vertical-align: middle;
}

.records tbody tr:last-child td {
  border-bottom: 0;
}

.records tbody tr:hover {
  background: var(--surface-2);
}

.records th {
  font-size: 0.8125rem;
  font-weight: 600;
  color: var(--muted);
  white-space: nowrap;
  background: var(--surface-2);
}

.records td {
  max-width: 22rem;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
}

.records .cell-integer,
.records .cell-number {
  text-align: right;
  font-variant-numeric: tabular-nums;
}


.sort {
  display: inline-flex;
  align-items: center;
  gap: 0.25rem;
  padding: 0.125rem 0.25rem;
  margin: -0.125rem -0.25rem;
  border: 0;
  background: none;
  color: inherit;
  font: inherit;
  cursor: pointer;
  border-radius: 4px;
}

.sort:hover {
  color: var(--text);
}

.sort-mark::after {
  content: "↕";
  opacity: 0.35;
}

.sort-mark.sort-ascending::after {
  content: "↑";
  opacity: 1;
}

.sort-mark.sort-descending::after {
  content: "↓";
  opacity: 1;
}

.row-actions {
  text-align: right;
  width: 1%;
}

.row-actions .button + .button {
  margin-left: 0.375rem;
}

/* On wide screens the actions stay in view while a wide table scrolls. */
@media (min-width: 721px) {
  .records .row-actions,
  .records .actions-head {
    position: sticky;
    right: 0;
    background: var(--surface);
    box-shadow: inset 1px 0 0 var(--border);
  }

  .records .actions-head,
  .records tbody tr:hover .row-actions {
    background: var(--surface-2);
  }
}

.pagination {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem;
  margin-top: 1rem;
}

.page-status {
  color: var(--muted);
  font-size: 0.875rem;
  text-align: center;
}

/* Dialogs */

.dialog {
  width: min(36rem, calc(100vw - 2rem));
  max-height: calc(100vh - 2rem);
  padding: 1.25rem 1.5rem 1.5rem;
  border: 1px solid var(--border);
  border-radius: calc(var(--radius) * 1.5);
  background: var(--surface);
  color: var(--text);
  box-shadow: 0 12px 32px rgb(16 24 40 / 0.24);
}

.dialog::backdrop {
  background: rgb(16 24 40 / 0.45);
}

.dialog-head {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 1rem;
  margin-bottom: 1rem;
}

.dialog-message {
  margin: 0 0 1.25rem;
}

/* Narrow screens (phones, 375 px) */

@media (max-width: 720px) {
  .topbar {
    padding: 0.625rem 1rem;
  }

  .session {
    margin-left: 0;
    width: 100%;
    flex-wrap: nowrap;
    justify-content: space-between;
  }

  .signed-in {
    min-width: 0;
  }

  .main {
    padding: 1rem;
  }

  .card {
    padding: 1.125rem;
  }

  .card-narrow {
    margin: 0.5rem auto;
  }

  .layout {
    grid-template-columns: minmax(0, 1fr);
    gap: 1rem;
  }

  .sidebar {
    padding: 0.5rem;
  }

  .sidebar-title {
    display: none;
  }

  .sidebar ul {
    display: flex;
    gap: 0.25rem;
    overflow-x: auto;
  }

  .sidebar a {
    white-space: nowrap;
    overflow-wrap: normal;
  }

  .toolbar > .button-primary {
    margin-left: 0;
    width: 100%;
  }

  .locale {
    flex: 1 1 auto;
  }

  .locale select {
    width: 100%;
  }

  .records td {
    max-width: 12rem;
  }

  .actions .button {
    flex: 1 1 auto;
  }

  .saved {
    width: 100%;
  }
}

/* Chips: picked relations and active filters. */
.chips {
  display: flex;
  flex-wrap: wrap;
  gap: 0.375rem;
  margin: 0;
  padding: 0;
  list-style: none;
}

.chips[hidden] {
  display: none;
}

.chip {
  display: inline-flex;
  align-items: center;
  gap: 0.25rem;
  max-width: 100%;
  padding: 0.125rem 0.25rem 0.125rem 0.625rem;
  color: var(--text);
  background: var(--surface-2);
  border: 1px solid var(--border);
  border-radius: 999px;
  font-size: 0.875rem;
}

.chip-name {
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
}

.chip-button {
  min-width: 1.75rem;
  min-height: 1.75rem;
  padding: 0 0.375rem;
  color: var(--text);
  background: transparent;
  border: 0;
  border-radius: 999px;
  cursor: pointer;
  font: inherit;
}

.chip-button:hover {
  background: var(--border);
}

/* multiSelect: chosen values as chips, a dropdown and Add for the others. */
.choice-chips {
  display: flex;
  flex-direction: column;
  gap: 0.375rem;
}

.choice-add {
  display: flex;
  gap: 0.5rem;
  align-items: center;
}

.choice-add select {
  flex: 1;
  min-width: 0;
}

/* Relation pickers: a combobox with its listbox below. */
.picker {
  position: relative;
  display: flex;
  flex-direction: column;
  gap: 0.375rem;
}

.picker-list {
  position: absolute;
  z-index: 20;
  top: 100%;
  left: 0;
  right: 0;
  max-height: 16rem;
  margin: 0.25rem 0 0;
  padding: 0.25rem;
  overflow-y: auto;
  list-style: none;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  box-shadow: 0 8px 24px rgb(16 24 40 / 0.16);
}

.picker-list[hidden] {
  display: none;
}

.picker-option,
.picker-empty {
  padding: 0.5rem 0.625rem;
  border-radius: calc(var(--radius) - 2px);
}

.picker-option {
  cursor: pointer;
}

.picker-option:hover,
.picker-option[aria-selected="true"] {
  color: var(--accent-text);
  background: var(--accent);
}

.picker-create {
  font-weight: 600;
}

.picker-empty {
  color: var(--muted);
}

/* A boolean shown as a switch. */
input.switch {
  appearance: none;
  position: relative;
  width: 2.5rem;
  height: 1.5rem;
  margin: 0;
  background: var(--border);
  border: 0;
  border-radius: 999px;
  cursor: pointer;
  transition: background 0.15s;
}

input.switch::after {
  content: "";
  position: absolute;
  top: 0.1875rem;
  left: 0.1875rem;
  width: 1.125rem;
  height: 1.125rem;
  background: var(--surface);
  border-radius: 50%;
  transition: transform 0.15s;
}

input.switch:checked {
  background: var(--accent);
}

input.switch:checked::after {
  transform: translateX(1rem);
}

textarea {
  width: 100%;
  min-height: 6rem;
  padding: 0.5rem 0.625rem;
  color: var(--text);
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  font: inherit;
  resize: vertical;
}

/* Filters and the column chooser. */
.filters {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
  margin-bottom: 1rem;
}

.add-filter,
.columns-chooser {
  position: relative;
}

.add-filter > summary,
.columns-chooser > summary {
  list-style: none;
}

.add-filter > summary::-webkit-details-marker,
.columns-chooser > summary::-webkit-details-marker {
  display: none;
}

.filter-builder {
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: 0.5rem 0.75rem;
  margin-top: 0.5rem;
  padding: 0.75rem;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
}

.filter-part,
.filter-value {
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  min-width: 10rem;
}

.choices {
  position: absolute;
  z-index: 10;
  right: 0;
  min-width: 12rem;
  margin: 0.25rem 0 0;
  padding: 0.5rem 0.75rem;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  box-shadow: var(--shadow);
}

.choice {
  display: flex;
  align-items: center;
  gap: 0.5rem;
  padding: 0.25rem 0;
}

/* Empty collections and empty results. */
.empty-state {
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 0.75rem;
  padding: 2rem 1.5rem;
  color: var(--muted);
  background: var(--surface);
  border: 1px dashed var(--border);
  border-radius: calc(var(--radius) * 1.5);
}

.empty-state p {
  margin: 0;
  font-size: 1.0625rem;
}

/* Toasts after create, save and delete. */
.toasts {
  position: fixed;
  z-index: 50;
  right: 1rem;
  bottom: 1rem;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  max-width: min(24rem, calc(100vw - 2rem));
}

.toast {
  display: flex;
  align-items: center;
  gap: 0.5rem;
  padding: 0.625rem 0.5rem 0.625rem 0.875rem;
  color: var(--text);
  background: var(--surface);
  border: 1px solid var(--border);
  border-left: 4px solid var(--ok);
  border-radius: var(--radius);
  box-shadow: 0 8px 24px rgb(16 24 40 / 0.16);
}

.toast-error {
  border-left-color: var(--danger);
}

.toast > span {
  flex: 1 1 auto;
}

/* Narrow screens: each record is a card with its fields labelled and its actions visible. */
@media (max-width: 640px) {
  .table-wrap {
    overflow: visible;
    background: transparent;
    border: 0;
    box-shadow: none;
  }

  .records,
  .records tbody,
  .records tr,
  .records td {
    display: block;
    width: 100%;
  }

  .records thead {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }

  .records tr {
    margin-bottom: 0.75rem;
    padding: 0.5rem 0.75rem;
    background: var(--surface);
    border: 1px solid var(--border);
    border-radius: calc(var(--radius) * 1.5);
    box-shadow: var(--shadow);
  }

  .records td,
  .records tbody tr:last-child td {
    display: flex;
    gap: 0.75rem;
    justify-content: space-between;
    max-width: none;
    padding: 0.375rem 0;
    border-bottom: 1px solid var(--border);
    white-space: normal;
    text-align: right;
  }

  .records td:last-child {
    border-bottom: 0;
  }

  .records td[data-label]::before {
    content: attr(data-label);
    color: var(--muted);
    font-weight: 600;
    text-align: left;
  }

  .records tbody td.row-actions {
    justify-content: flex-end;
    padding-top: 0.5rem;
  }

  .choices {
    left: 0;
    right: auto;
  }
}

/* A record's page. */
.back {
  display: inline-block;
  margin-bottom: 0.5rem;
}

.record-id {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  margin-bottom: 1rem;
  color: var(--muted);
}

.record-id code {
  padding: 0.125rem 0.375rem;
  color: var(--text);
  background: var(--surface-2);
  border-radius: 4px;
  overflow-wrap: anywhere;
}

.record-card {
  max-width: 48rem;
}

.default-value {
  padding-left: 0.5rem;
  border-left: 3px solid var(--border);
}

/* File fields: a drop zone with the files, their thumbnails and upload progress. */
.dropzone {
  display: flex;
  flex-direction: column;
  min-width: 0;
  gap: 0.5rem;
  padding: 0.75rem;
  border: 2px dashed var(--border);
  border-radius: var(--radius);
}

.dropzone.dragging {
  border-color: var(--accent);
  background: var(--surface-2);
}

.file-list {
  display: flex;
  flex-direction: column;
  gap: 0.375rem;
  margin: 0;
  padding: 0;
  list-style: none;
}

.file-list[hidden] {
  display: none;
}

.file {
  display: flex;
  align-items: center;
  gap: 0.5rem;
  min-width: 0;
}

.file progress {
  flex: 1 1 auto;
}

/* A files field's items move by drag, or by their earlier / later buttons. */
.file[draggable="true"] {
  cursor: grab;
}

.file .chip-name {
  flex: 1 1 auto;
}

.chip-button:disabled {
  cursor: default;
  opacity: 0.4;
}

.chip-button:disabled:hover {
  background: transparent;
}

.file-input {
  max-width: 100%;
}

.thumb {
  width: 2.5rem;
  height: 2.5rem;
  object-fit: cover;
  border-radius: 4px;
  border: 1px solid var(--border);
}
`;
