// The editors' pages of changes (issue 47) as Eta templates with the page layer's shared ones
// (pages/templates.ts: escaping on, includes the only raw output): a record's history, the
// latest changes, a change file's upload and preview. Each form carries its hidden `csrf`.
import { pageTemplates } from '../../pages/templates.js';

const EDIT_CHANGE_TEMPLATES = {
  '@problem': `<% if (it.problem) { %><p class="problem" role="alert" id="problem"><%= it.problem %></p>
<% } %>`,
  '@fields': `<% if (it.fields.length > 0) { %><dl class="fields">
<% for (const f of it.fields) { %><div><dt><%= f.label %></dt><dd><%= f.text %></dd></div>
<% } %></dl><% } %>`,
  '@record': `<a href="<%= it.historyHref %>"><%= it.label %></a> <span class="muted">(<%= it.kind %> <%= it.id %><% if (it.recordHref) { %>, <a href="<%= it.recordHref %>">its page</a><% } %>)</span>`,
  '@undo': `<form method="post" action="<%= it.action %>" class="undo"><input type="hidden" name="csrf" value="<%= it.csrf %>"><button type="submit"><%= it.label %></button></form>`,
  history: `<%~ include('@head', it) %>
<p><%= it.about %><% if (it.recordHref) { %> <a href="<%= it.recordHref %>">Its page</a><% } %><% if (it.editHref) { %> · <a href="<%= it.editHref %>">Edit it</a><% } %> · <a href="<%= it.recentHref %>">Latest changes across the catalogue</a></p>
<%~ include('@problem', { problem: it.problem }) %><% if (it.changes.length === 0) { %><p>No change has been made to it through this site: it is as imported.</p>
<% } else { %><p>Every change made to it through this site, newest first<% if (it.more) { %> (the latest <%= it.changes.length %>)<% } %>. Times are UTC.</p>
<ol class="changes">
<% for (const c of it.changes) { %><li id="change-<%= c.id %>"><h2><%= c.whatText %></h2>
<p class="who">By <strong><%= c.username %></strong>, <time datetime="<%= c.iso %>"><%= c.when %></time><% if (c.undone) { %> · <a href="<%= c.undone %>">the change it undid</a><% } %><% if (c.review) { %> · <a href="<%= c.review %>">the contribution's review</a><% } %></p>
<% if (c.fate === 'removed') { %><p>Removed from the catalogue.</p>
<% } else if (c.fate === 'added') { %><p>Added to the catalogue:</p>
<% } %><%~ include('@fields', { fields: c.fields }) %>
<% if (c.companions.length > 0) { %><p class="muted">Also in this change: <% c.companions.forEach((o, i) => { %><%= i > 0 ? ', ' : '' %><a href="<%= o.historyHref %>"><%= o.label %></a><% }) %><% if (c.moreCompanions > 0) { %> and <%= c.moreCompanions %> more<% } %>.</p>
<% } %><% if (c.undo) { %><%~ include('@undo', { action: c.undo, csrf: it.csrf, label: c.undoLabel }) %>
<% } %></li>
<% } %></ol><% } %>
<%~ include('@foot', it) %>`,
  recent: `<%~ include('@head', it) %>
<p>Every change made through this site, newest first, each with the records it touched. Times are UTC. <a href="<%= it.changesHref %>">Upload a change file</a></p>
<% if (it.changes.length === 0) { %><p>No change has been made through this site yet.</p>
<% } else { %><ol class="changes">
<% for (const c of it.changes) { %><li><h2><%= c.whatText %></h2>
<p class="who">By <strong><%= c.username %></strong>, <time datetime="<%= c.iso %>"><%= c.when %></time></p>
<ul class="touched">
<% for (const r of c.records) { %><li><%= r.fate %>: <%~ include('@record', r) %></li>
<% } %></ul>
<% if (c.more > 0) { %><p class="muted">and <%= c.more %> more records.</p>
<% } %><% if (c.undo) { %><%~ include('@undo', { action: c.undo, csrf: it.csrf, label: c.undoLabel }) %>
<% } %></li>
<% } %></ol><% } %>
<% if (it.nextHref) { %><nav class="pager" aria-label="Older changes"><a rel="next" href="<%= it.nextHref %>">Older changes →</a></nav><% } %>
<%~ include('@foot', it) %>`,
  changes: `<%~ include('@head', it) %>
<p>A change file (<code>heritage-changes/1</code>, as <code>apply</code> reads it) adds, replaces or removes a few records. Send one to see exactly what it would change; nothing changes until you apply it, as one change you can undo from <a href="<%= it.recentHref %>">the latest changes</a>.</p>
<%~ include('@problem', { problem: it.problem }) %><% if (it.problems.length > 0) { %><section aria-labelledby="problems-heading"><h2 id="problems-heading">Problems in <%= it.name %><% if (it.total > it.problems.length) { %> (the first <%= it.problems.length %> of <%= it.total %>)<% } %></h2>
<p>Nothing was changed. Correct these and send the file again:</p>
<ul class="problems">
<% for (const p of it.problems) { %><li><code><%= p.path %></code>: <%= p.message %></li>
<% } %></ul></section>
<% } %><% if (it.preview) { %><section class="preview" aria-labelledby="preview-heading"><h2 id="preview-heading">What <%= it.preview.name %> would change</h2>
<% if (it.preview.records.length === 0) { %><p>Nothing: the catalogue already holds every record as the file gives it.</p>
<% } else { %><ol class="changes">
<% for (const r of it.preview.records) { %><li><h3><%= r.fate %>: <%~ include('@record', r) %></h3>
<%~ include('@fields', { fields: r.fields }) %></li>
<% } %></ol><% } %>
<% if (it.preview.unchanged > 0) { %><p class="muted"><%= it.preview.unchangedText %></p>
<% } %><% if (it.preview.records.length > 0) { %><form method="post" action="<%= it.action %>" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<input type="hidden" name="name" value="<%= it.preview.name %>">
<input type="hidden" name="seen" value="<%= it.preview.seen %>">
<input type="hidden" name="seal" value="<%= it.preview.seal %>">
<input type="hidden" name="carried" value="<%= it.preview.text %>">
<p><button class="button" type="submit" name="action" value="apply">Apply these changes</button></p>
</form><% } %></section>
<% } %><form class="upload" method="post" action="<%= it.action %>" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<h2><%= it.preview ? 'Send another file' : 'Send a change file' %></h2>
<p><label for="file">The file</label>
<input id="file" name="file" type="file" accept=".json,application/json" aria-describedby="file-hint">
<span class="muted" id="file-hint">JSON, at most <%= it.maxText %>. Or paste its text below.</span></p>
<p><label for="text">Or its text</label>
<textarea id="text" name="text" rows="10" spellcheck="false"><%= it.text %></textarea></p>
<p><button type="submit" name="action" value="preview">Show what it would change</button></p>
</form>
<%~ include('@foot', it) %>`,
};

export type EditChangePageName = Exclude<keyof typeof EDIT_CHANGE_TEMPLATES, `@${string}`>;

export const EDIT_CHANGE_PAGES = pageTemplates<EditChangePageName>(EDIT_CHANGE_TEMPLATES);
