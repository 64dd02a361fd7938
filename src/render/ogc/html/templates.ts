// The OGC face's pages for GIS people (the landing page, conformance, the collections and
// each collection's items), rendered with the page layer's shared templates (pages/templates.ts).
// An item's page is its record page, the site's.
import { pageTemplates } from '../../../pages/templates.js';

export type OgcPageName = 'landing' | 'conformance' | 'collections' | 'collection' | 'items';

export const OGC_PAGES = pageTemplates<OgcPageName>({
  '@links': `<ul class="links">
<% for (const l of it.links) { %><li><a href="<%= l.href %>" type="<%= l.type %>"><%= l.title %></a> <span class="muted">(<%= l.rel %>, <%= l.type %>)</span></li>
<% } %></ul>
`,
  landing: `<%~ include('@head', it) %>
<p class="lead"><%= it.description %></p>
<h2>Collections</h2>
<ul class="cards">
<% for (const c of it.collections) { %><li><a href="<%= c.href %>"><%= c.title %></a> — <%= c.description %></li>
<% } %></ul>
<h2>Links</h2>
<%~ include('@links', { links: it.links }) %>
<%~ include('@foot', it) %>`,
  conformance: `<%~ include('@head', it) %>
<p>This server meets these conformance classes of the OGC API standards:</p>
<ul class="plain">
<% for (const c of it.classes) { %><li><code><%= c %></code></li>
<% } %></ul>
<%~ include('@foot', it) %>`,
  collections: `<%~ include('@head', it) %>
<% for (const c of it.collections) { %><section class="card" aria-labelledby="c-<%= c.id %>">
<h2 id="c-<%= c.id %>"><a href="<%= c.href %>"><%= c.title %></a></h2>
<p><%= c.description %></p>
<p><a href="<%= c.itemsHref %>">Browse its items</a> · <span class="muted">extent <%= c.extentText %></span></p>
</section>
<% } %>
<%~ include('@foot', it) %>`,
  collection: `<%~ include('@head', it) %>
<p class="lead"><%= it.description %></p>
<div class="split">
<div>
<dl class="facts">
<dt>Spatial extent</dt><dd><%= it.extentText %></dd>
<% if (it.intervalText) { %><dt>Temporal extent</dt><dd><%= it.intervalText %></dd><% } %>
<dt>Coordinate reference system</dt><dd>WGS 84 longitude, latitude (CRS84)</dd>
</dl>
<p><a class="button" href="<%= it.itemsHref %>">Browse its items</a></p>
<h2 id="properties">Properties</h2>
<div class="scroll" tabindex="0" role="region" aria-labelledby="properties">
<table>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>
<% for (const p of it.properties) { %><tr><td><code><%= p.name %></code></td><td><%= p.type %></td><td><%= p.title %></td></tr>
<% } %></tbody>
</table>
</div>
</div>
<%~ include('@drawing', { drawing: it.drawing, id: 'extent', caption: 'The extent of the collection (the outlined box).' }) %>
</div>
<h2>Links</h2>
<%~ include('@links', { links: it.links }) %>
<%~ include('@foot', it) %>`,
  items: `<%~ include('@head', it) %>
<p><%= it.summary %></p>
<%~ include('@drawing', { drawing: it.drawing, id: 'page-map', caption: 'The items of this page; the table below links each to its page.' }) %>
<%~ include('@pager', { label: 'Pages', prevHref: it.prevHref, nextHref: it.nextHref }) %>
<div class="scroll" tabindex="0" role="region" aria-label="The items">
<table>
<thead><tr><% for (const c of it.columns) { %><th scope="col"><%= c %></th><% } %></tr></thead>
<tbody>
<% for (const r of it.rows) { %><tr><th scope="row"><a href="<%= r.href %>"><%= r.label %></a></th><% for (const v of r.cells) { %><td><%= v %></td><% } %></tr>
<% } %></tbody>
</table>
</div>
<%~ include('@pager', { label: 'Pages, again', prevHref: it.prevHref, nextHref: it.nextHref }) %>
<%~ include('@foot', it) %>`,
});
