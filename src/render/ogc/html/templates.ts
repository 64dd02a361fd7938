// The HTML pages of /ogc/, as Eta templates with escaping on (`<%= %>` escapes every
// interpolation). Raw output (`<%~ %>`) is used only for the includes of these templates,
// a document body already sanitised (sanitise.ts) and the JSON-LD block (its `<` escaped
// as \u003c): test/unit/ogc-html-templates.test.ts holds every template to that.
import { Eta } from 'eta';

export const TEMPLATES: Readonly<Record<string, string>> = {
  '@head': `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.page.title %></title>
<% if (it.page.description) { %><meta name="description" content="<%= it.page.description %>">
<% } %>
<link rel="stylesheet" href="<%= it.page.style %>">
<% if (it.page.canonical) { %><link rel="canonical" href="<%= it.page.canonical %>">
<% } %>
<% for (const a of it.page.alternates) { %><link rel="alternate" type="<%= a.type %>" href="<%= a.href %>" title="<%= a.title %>">
<% } %>
<% if (it.page.og) { %><meta property="og:type" content="website">
<meta property="og:title" content="<%= it.page.og.title %>">
<meta property="og:description" content="<%= it.page.og.description %>">
<meta property="og:url" content="<%= it.page.canonical %>">
<% if (it.page.og.image) { %><meta property="og:image" content="<%= it.page.og.image %>">
<% } %><% } %>
<% if (it.page.jsonLd) { %><script type="application/ld+json"><%~ it.page.jsonLd %></script>
<% } %>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="site">
<nav aria-label="Breadcrumbs"><ol class="crumbs">
<% for (const c of it.page.crumbs) { %><li><a href="<%= c.href %>"><%= c.label %></a></li>
<% } %><li aria-current="page"><%= it.page.heading %></li>
</ol></nav>
</header>
<main id="main" tabindex="-1">
<h1><%= it.page.heading %></h1>
`,
  '@foot': `</main>
<footer class="site">
<p>This page as data:
<% for (const a of it.page.alternates) { %><a href="<%= a.href %>" type="<%= a.type %>"><%= a.title %></a> · <% } %>
<a href="<%= it.page.home %>">OGC API – Features</a> · <a href="<%= it.page.map %>">Map explorer</a></p>
</footer>
</body>
</html>
`,
  '@drawing': `<% if (it.drawing) { %><figure class="minimap">
<svg viewBox="<%= it.drawing.viewBox %>" role="img" aria-labelledby="<%= it.id %>-caption" xmlns="http://www.w3.org/2000/svg">
<rect class="ground" x="0" y="0" width="100%" height="100%"/>
<% for (const s of it.drawing.shapes) { %><% if (s.href) { %><a href="<%= s.href %>"><title><%= s.title %></title><path d="<%= s.d %>" fill-rule="evenodd"/></a><% } else { %><path d="<%= s.d %>" fill-rule="evenodd"/><% } %>
<% } %></svg>
<figcaption id="<%= it.id %>-caption"><%= it.caption %></figcaption>
</figure><% } %>
`,
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
<h2>Properties</h2>
<table>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>
<% for (const p of it.properties) { %><tr><td><code><%= p.name %></code></td><td><%= p.type %></td><td><%= p.title %></td></tr>
<% } %></tbody>
</table>
</div>
<%~ include('@drawing', { drawing: it.drawing, id: 'extent', caption: 'The extent of the collection (the outlined box).' }) %>
</div>
<h2>Links</h2>
<%~ include('@links', { links: it.links }) %>
<%~ include('@foot', it) %>`,
  items: `<%~ include('@head', it) %>
<p><%= it.summary %></p>
<%~ include('@drawing', { drawing: it.drawing, id: 'page-map', caption: 'The items of this page; each links to its page.' }) %>
<nav class="pager" aria-label="Pages">
<% if (it.prevHref) { %><a rel="prev" href="<%= it.prevHref %>">← Previous page</a><% } %>
<% if (it.nextHref) { %><a rel="next" href="<%= it.nextHref %>">Next page →</a><% } %>
</nav>
<div class="scroll" tabindex="0" role="region" aria-label="The items">
<table>
<thead><tr><% for (const c of it.columns) { %><th scope="col"><%= c %></th><% } %></tr></thead>
<tbody>
<% for (const r of it.rows) { %><tr><th scope="row"><a href="<%= r.href %>"><%= r.label %></a></th><% for (const v of r.cells) { %><td><%= v %></td><% } %></tr>
<% } %></tbody>
</table>
</div>
<nav class="pager" aria-label="Pages, again">
<% if (it.prevHref) { %><a rel="prev" href="<%= it.prevHref %>">← Previous page</a><% } %>
<% if (it.nextHref) { %><a rel="next" href="<%= it.nextHref %>">Next page →</a><% } %>
</nav>
<%~ include('@foot', it) %>`,
  feature: `<%~ include('@head', it) %>
<div class="split">
<div>
<dl class="facts">
<dt>Address</dt><dd><%= it.f.address %></dd>
<% if (it.f.name) { %><dt>Name</dt><dd><%= it.f.name %></dd><% } %>
<% if (it.f.categories.length > 0) { %><dt><%= it.f.categories.length === 1 ? 'Category' : 'Categories' %></dt><dd><%= it.f.categories.join(', ') %></dd><% } %>
<% if (it.f.year !== null) { %><dt>Year</dt><dd><%= it.f.year %></dd><% } %>
<% if (it.f.site) { %><dt>Site</dt><dd><%= it.f.site %></dd><% } %>
<dt>Kind</dt><dd><%= it.f.kind %></dd>
</dl>
<ul class="actions">
<li><a href="<%= it.f.mapHref %>">See it on the map explorer</a></li>
<li><a href="<%= it.f.geojsonHref %>" type="application/geo+json">GeoJSON</a></li>
<li><a href="<%= it.f.apiHref %>" type="application/json">JSON (/api/v1/)</a></li>
</ul>
</div>
<%~ include('@drawing', { drawing: it.drawing, id: 'footprint', caption: it.drawingCaption }) %>
</div>
<% if (it.images.length > 0) { %><section aria-labelledby="images-heading">
<h2 id="images-heading">Images</h2>
<ul class="gallery">
<% for (const i of it.images) { %><li><a href="<%= i.file %>"><img src="<%= i.file %>" alt="<%= i.title %>" loading="lazy" width="240" height="180"></a>
<p><a href="<%= i.href %>"><%= i.title %></a></p></li>
<% } %></ul>
</section><% } %>
<% for (const d of it.documents) { %><article class="document" aria-labelledby="doc-<%= d.id %>">
<h2 id="doc-<%= d.id %>"><%= d.title %></h2>
<p class="muted">By <%= d.author %><% if (d.created) { %>, <%= d.created %><% } %> · <a href="<%= d.href %>">its own page</a></p>
<div class="body"><%~ d.html %></div>
</article>
<% } %>
<% if (it.media.length > 0) { %><section aria-labelledby="media-heading">
<h2 id="media-heading">Media</h2>
<ul>
<% for (const m of it.media) { %><li><a href="<%= m.url %>" rel="nofollow noopener noreferrer"><%= m.title %></a> <span class="muted">(<a href="<%= m.href %>">its page</a>)</span></li>
<% } %></ul>
</section><% } %>
<% if (it.images.length + it.documents.length + it.media.length === 0) { %><p class="muted">Nothing is attached to this record yet.</p><% } %>
<%~ include('@foot', it) %>`,
  attachment: `<%~ include('@head', it) %>
<p>Of <a href="<%= it.featureHref %>"><%= it.featureLabel %></a><% if (it.author) { %> · by <%= it.author %><% } %></p>
<% if (it.image) { %><figure class="picture"><a href="<%= it.image.file %>"><img src="<%= it.image.file %>" alt="<%= it.image.title %>"></a>
<% if (it.image.description) { %><figcaption><%= it.image.description %></figcaption><% } %></figure><% } %>
<% if (it.facts.length > 0) { %><dl class="facts">
<% for (const f of it.facts) { %><dt><%= f.label %></dt><dd><%= f.value %></dd>
<% } %></dl><% } %>
<% if (it.html !== null) { %><div class="body document"><%~ it.html %></div><% } %>
<% if (it.url) { %><p><a href="<%= it.url %>" rel="nofollow noopener noreferrer">Open the video: <%= it.url %></a></p><% } %>
<p><a href="<%= it.featureHref %>">← Back to <%= it.featureLabel %></a></p>
<%~ include('@foot', it) %>`,
};

/** Which raw interpolations a template may hold (the unit test reads this too). */
export const RAW_ALLOWED = [/^include\('@[a-z]+', [^]*\)$/, /^it\.page\.jsonLd$/, /^d\.html$/, /^it\.html$/];

let eta: Eta | undefined;

/** Compiled at the first page asked for, not at import: a server's start need not wait for them. */
function compiledTemplates(): Eta {
  if (eta) return eta;
  eta = new Eta({ autoEscape: true, autoTrim: false, cache: true });
  for (const [name, text] of Object.entries(TEMPLATES)) eta.loadTemplate(name.startsWith('@') ? name : `@${name}`, text);
  return eta;
}

export type PageName = 'landing' | 'conformance' | 'collections' | 'collection' | 'items' | 'feature' | 'attachment';

export function renderPage(name: PageName, data: object): string {
  return compiledTemplates().render(`@${name}`, data);
}

/** JSON for a <script type="application/ld+json"> block: `<`, `>`, `&` as \\u escapes. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
