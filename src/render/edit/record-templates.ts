// The editors' record pages (issue 47) as Eta templates, escaping on, rendered with the page
// layer's shared ones: a record's form, the conflict page (the other change and this editor's
// text side by side) and a removal's question. Each form carries its csrf and the version of
// the record it was made from.
import { pageTemplates } from '../../pages/templates.js';

const EDIT_RECORD_TEMPLATES = {
  '@problems': `<% if (it.problems.length > 0) { %><div class="problem" role="alert" id="problems"><p>Nothing was saved: <%= it.problems.length === 1 ? 'one thing needs' : it.problems.length + ' things need' %> changing.</p>
<ul><% for (const p of it.problems) { %><li><% if (p.href) { %><a href="<%= p.href %>"><%= p.label %></a>: <% } %><%= p.text %></li>
<% } %></ul></div>
<% } %>`,
  '@field': `<% const f = it.field; const described = [f.hint ? 'hint-' + f.key : '', f.problem ? 'problem-' + f.key : ''].filter(Boolean).join(' '); %>
<% if (f.input === 'footprint') { %><%~ it.footprint %>
<% } else if (f.input === 'categories') { %><fieldset class="choices"<% if (described) { %> aria-describedby="<%= described %>"<% } %>><legend><%= f.label %></legend>
<% for (const c of f.options) { %><label><input type="checkbox" name="<%= f.key %>" value="<%= c.value %>"<% if (c.checked) { %> checked<% } %>> <%= c.label %></label>
<% } %><% if (f.options.length === 0) { %><p class="muted">The catalogue has no categories.</p><% } %></fieldset>
<% } else if (f.input === 'published' || f.input === 'licence') { %><fieldset class="choices"<% if (described) { %> aria-describedby="<%= described %>"<% } %>><legend><%= f.label %></legend>
<% for (const c of f.options) { %><label><input type="radio" name="<%= f.key %>" value="<%= c.value %>"<% if (c.checked) { %> checked<% } %>> <%= c.label %></label>
<% } %></fieldset>
<% } else { %><p><label for="field-<%= f.key %>"><%= f.label %></label>
<% if (f.input === 'kind' || f.input === 'site') { %><select id="field-<%= f.key %>" name="<%= f.key %>"<% if (described) { %> aria-describedby="<%= described %>"<% } %><% if (f.problem) { %> aria-invalid="true"<% } %>>
<% for (const c of f.options) { %><option value="<%= c.value %>"<% if (c.checked) { %> selected<% } %>><%= c.label %></option>
<% } %></select>
<% } else if (f.multiline) { %><textarea id="field-<%= f.key %>" name="<%= f.key %>" rows="<%= f.rows %>"<% if (described) { %> aria-describedby="<%= described %>"<% } %><% if (f.problem) { %> aria-invalid="true"<% } %>><%= f.value %></textarea>
<% } else { %><input id="field-<%= f.key %>" name="<%= f.key %>" type="<%= f.type %>" value="<%= f.value %>"<% if (f.inputmode) { %> inputmode="<%= f.inputmode %>"<% } %><% if (described) { %> aria-describedby="<%= described %>"<% } %><% if (f.problem) { %> aria-invalid="true"<% } %>>
<% } %></p><% } %>
<% if (f.hint && f.input !== 'footprint') { %><p class="hint muted" id="hint-<%= f.key %>"><%= f.hint %></p>
<% } %><% if (f.problem && f.input !== 'footprint') { %><p class="problem" id="problem-<%= f.key %>"><%= f.problem %></p>
<% } %>`,
  'record-form': `<%~ include('@head', it) %>
<% if (it.links.length > 0) { %><p class="edit-links"><% for (const l of it.links) { %><a href="<%= l.href %>"><%= l.label %></a> <% } %></p>
<% } %><% if (it.saved) { %><p class="notice" role="status">Saved. Every page, the API and the map show it now.</p>
<% } %><% if (it.conflict) { %><section class="conflict" aria-labelledby="conflict-heading">
<h2 id="conflict-heading">Someone else saved this <%= it.noun %> while you were editing</h2>
<p>Nothing you wrote was saved, and nothing is lost: their version is saved now, yours is in the form below. Compare them, keep what is right in the form, and save again.</p>
<table class="compare"><thead><tr><th scope="col">Field</th><th scope="col">Saved by the other change</th><th scope="col">What you wrote</th></tr></thead>
<tbody><% for (const row of it.conflict) { %><tr><th scope="row"><%= row.label %></th><td><%= row.theirs %></td><td><%= row.yours %></td></tr>
<% } %></tbody></table>
</section>
<% } %><%~ include('@problems', it) %><form class="edit" method="post" action="<%= it.action %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<input type="hidden" name="seen" value="<%= it.seen %>">
<% for (const field of it.fields) { %><%~ include('@field', { field, footprint: it.footprint }) %><% } %>
<p><button type="submit"><%= it.submit %></button></p>
</form>
<%~ it.assets %>
<%~ include('@foot', it) %>`,
  'record-remove': `<%~ include('@head', it) %>
<%~ include('@problems', it) %><p>Remove <a href="<%= it.recordHref %>"><%= it.label %></a> from the catalogue? It can be undone from its history.</p>
<% if (it.goes.length > 0) { %><p>With it go what is attached to it:</p>
<ul><% for (const g of it.goes) { %><li><%= g %></li><% } %></ul>
<% } %><form method="post" action="<%= it.action %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<input type="hidden" name="seen" value="<%= it.seen %>">
<input type="hidden" name="attached" value="<%= it.attached %>">
<p><button type="submit"><%= it.goes.length > 0 ? 'Remove it and what is attached' : 'Remove it' %></button> <a href="<%= it.back %>">Keep it</a></p>
</form>
<%~ include('@foot', it) %>`,
};

export type EditRecordPageName = Exclude<keyof typeof EDIT_RECORD_TEMPLATES, `@${string}`>;

export const EDIT_RECORD_PAGES = pageTemplates<EditRecordPageName>(EDIT_RECORD_TEMPLATES);
