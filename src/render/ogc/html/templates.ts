// The HTML pages for people (the site's and the OGC face's), as Eta templates with escaping on (`<%= %>` escapes every
// interpolation). Raw output (`<%~ %>`) is used only for the includes of these templates,
// a document body already sanitised (sanitise.ts) and the JSON-LD block (its `<` escaped
// as \u003c): test/unit/ogc-html-templates.test.ts holds every template to that.
import { Eta } from 'eta';
import { CONTRIBUTE_TEMPLATES } from '../../contribute/templates.js';

const PAGE_TEMPLATES: Readonly<Record<string, string>> = {
  '@searchbox': `<form class="searchbox" role="search" action="<%= it.action %>" method="get">
<label for="q">Search the catalogue</label>
<div class="row"><input id="q" name="q" type="search" maxlength="200"<% if (it.q) { %> value="<%= it.q %>"<% } else { %> placeholder="A street, a building, a name…"<% } %>><button type="submit">Search</button></div>
<% for (const h of it.hidden) { %><input type="hidden" name="<%= h.name %>" value="<%= h.value %>">
<% } %></form>`,
  '@pager': `<nav class="pager" aria-label="<%= it.label %>">
<% if (it.prevHref) { %><a rel="prev" href="<%= it.prevHref %>">← Previous page</a><% } %>
<% if (it.pageText) { %><span><%= it.pageText %></span>
<% } %><% if (it.nextHref) { %><a rel="next" href="<%= it.nextHref %>">Next page →</a><% } %>
</nav>`,
  '@head': `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.page.title %></title>
<meta name="description" content="<%= it.page.description %>">
<link rel="stylesheet" href="<%= it.page.style %>">
<link rel="icon" href="<%= it.page.favicon %>" type="image/svg+xml">
<% if (it.page.canonical) { %><link rel="canonical" href="<%= it.page.canonical %>">
<% } %>
<% for (const a of it.page.alternates) { %><link rel="alternate" type="<%= a.type %>" href="<%= a.href %>" title="<%= a.title %>">
<% } %>
<% if (it.page.og) { %><meta property="og:type" content="website">
<meta property="og:site_name" content="<%= it.page.siteTitle %>">
<meta property="og:title" content="<%= it.page.og.title %>">
<meta property="og:description" content="<%= it.page.og.description %>">
<meta property="og:url" content="<%= it.page.canonical %>">
<% if (it.page.og.image) { %><meta property="og:image" content="<%= it.page.og.image %>">
<% } %><% } %>
<% if (it.page.jsonLd) { %><script type="application/ld+json"><%~ it.page.jsonLd %></script>
<% } %>
</head>
<body<% if (it.page.kind) { %> class="<%= it.page.kind %>"<% } %>>
<a class="skip" href="#main">Skip to the content</a>
<header class="site">
<div class="bar">
<a class="brand" href="<%= it.page.home %>"><%= it.page.siteTitle %></a>
<nav aria-label="Site"><ul class="sitenav">
<li><a href="<%= it.page.search %>">Search</a></li>
<li><a href="<%= it.page.map %>">Map</a></li>
<li><a href="<%= it.page.data %>">Data</a></li>
</ul></nav>
</div>
<% if (it.page.crumbs.length > 0) { %><nav aria-label="Breadcrumbs"><ol class="crumbs">
<% for (const c of it.page.crumbs) { %><li><a href="<%= c.href %>"><%= c.label %></a></li>
<% } %><li aria-current="page"><%= it.page.heading %></li>
</ol></nav><% } %>
</header>
<main id="main" tabindex="-1">
<h1><%= it.page.heading %></h1>
`,
  '@foot': `</main>
<footer class="site">
<p><%= it.page.siteTitle %> is published by <%= it.page.publisher %>. Its text is shared under <% if (it.page.licence.url) { %><a href="<%= it.page.licence.url %>" rel="license"><%= it.page.licence.name %></a><% } else { %><%= it.page.licence.name %><% } %>; each picture says its own licence.</p>
<p><% if (it.page.alternates.length > 0) { %>This page as data:
<% for (const a of it.page.alternates) { %><a href="<%= a.href %>" type="<%= a.type %>"><%= a.title %></a> · <% } %><% } %>
<a href="<%= it.page.ogc %>">OGC API – Features</a> · <a href="<%= it.page.apiDocs %>">API reference</a> · <a href="<%= it.page.map %>">Map explorer</a></p>
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
  feature: `<%~ include('@head', it) %>
<div class="split">
<div>
<dl class="facts">
<dt>Address</dt><dd><%= it.f.address %></dd>
<% if (it.f.name) { %><dt>Name</dt><dd><%= it.f.name %></dd><% } %>
<% if (it.f.street) { %><dt>Street</dt><dd><a href="<%= it.f.street.href %>"><%= it.f.street.name %></a></dd><% } %>
<% if (it.f.categories.length > 0) { %><dt><%= it.f.categories.length === 1 ? 'Category' : 'Categories' %></dt><dd><% it.f.categories.forEach((c, i) => { %><%= i > 0 ? ', ' : '' %><a href="<%= c.href %>"><%= c.name %></a><% }) %></dd><% } %>
<% if (it.f.year !== null) { %><dt>Year</dt><dd><%= it.f.year %></dd><% } %>
<% if (it.f.site) { %><dt>Site</dt><dd><%= it.f.site %></dd><% } %>
<dt>Kind</dt><dd><%= it.f.kind %></dd>
<% if (it.changed) { %><dt>Last changed</dt><dd><time datetime="<%= it.changed %>"><%= it.changed %></time></dd><% } %>
</dl>
<ul class="actions">
<li><a href="<%= it.f.mapHref %>">See it on the map explorer</a></li>
<li><a href="<%= it.f.geojsonHref %>" type="application/geo+json">GeoJSON</a></li>
<li><a href="<%= it.f.apiHref %>" type="application/json">JSON (/api/v1/)</a></li>
</ul>
</div>
<% if (it.context) { %><figure class="context">
<svg viewBox="<%= it.context.viewBox %>" role="img" aria-labelledby="context-caption" xmlns="http://www.w3.org/2000/svg">
<rect class="ground" x="0" y="0" width="100%" height="100%"/>
<% for (const d of it.context.neighbours) { %><path class="neighbour" d="<%= d %>" fill-rule="evenodd"/>
<% } %><path class="self" d="<%= it.context.self %>" fill-rule="evenodd"/>
<% for (const s of it.context.streets) { %><text class="street" x="<%= s.x %>" y="<%= s.y %>" font-size="<%= s.size %>" transform="rotate(<%= s.angle %> <%= s.x %> <%= s.y %>)" text-anchor="middle" dominant-baseline="middle"><%= s.name %></text>
<% } %><g class="scale"><rect x="<%= it.context.scale.x %>" y="<%= it.context.scale.y %>" width="<%= it.context.scale.width %>" height="6"/><text x="<%= it.context.scale.x %>" y="<%= it.context.scale.y - 8 %>"><%= it.context.scale.label %></text></g>
</svg>
<figcaption id="context-caption"><%= it.contextCaption %></figcaption>
</figure><% } %>
</div>
<% if (it.images.length > 0) { %><section aria-labelledby="images-heading">
<h2 id="images-heading">Pictures</h2>
<ul class="gallery">
<% for (const i of it.images) { %><li><a href="<%= i.href %>"><img src="<%= i.file %>" alt="<%= i.title %>" loading="lazy" width="240" height="160"></a>
<p><a href="<%= i.href %>"><%= i.title %></a></p>
<p class="credit">By <%= i.author %><%= i.created ? ', ' + i.created : '' %> · <% if (i.licence.url) { %><a href="<%= i.licence.url %>" rel="license"><%= i.licence.text %></a><% } else { %><%= i.licence.text %><% } %></p></li>
<% } %></ul>
</section><% } %>
<% for (const d of it.documents) { %><article class="document" aria-labelledby="doc-<%= d.id %>">
<h2 id="doc-<%= d.id %>"><%= d.title %></h2>
<p class="muted">By <%= d.author %> · written <time datetime="<%= d.created %>"><%= d.created %></time><% if (d.lastEdited) { %>, last edited <time datetime="<%= d.lastEdited %>"><%= d.lastEdited %></time><% } %> · <a href="<%= d.href %>">its own page</a></p>
<div class="body"><%~ d.html %></div>
</article>
<% } %>
<% if (it.media.length > 0) { %><section aria-labelledby="media-heading">
<h2 id="media-heading">Videos</h2>
<ul>
<% for (const m of it.media) { %><li><a href="<%= m.url %>" rel="nofollow noopener noreferrer"><%= m.title %></a> <span class="muted">shared by <%= m.author %> (<a href="<%= m.href %>">its page</a>)</span></li>
<% } %></ul>
</section><% } %>
<% if (it.images.length + it.documents.length + it.media.length === 0) { %><p class="muted">Nothing is attached to this record yet.</p><% } %>
<% if (it.contribute.length > 0) { %><section aria-labelledby="contribute-heading">
<h2 id="contribute-heading">Know something about it?</h2>
<ul class="actions">
<% for (const c of it.contribute) { %><li><a href="<%= c.href %>"><%= c.label %></a></li>
<% } %></ul>
</section><% } %>
<% if (it.nearby.length > 0) { %><section aria-labelledby="nearby-heading">
<h2 id="nearby-heading">Nearby</h2>
<ul class="nearby">
<% for (const b of it.nearby) { %><li><a href="<%= b.href %>"><%= b.label %></a> <span class="muted"><%= b.metres %> m <%= b.direction %></span></li>
<% } %></ul>
</section><% } %>
<section aria-labelledby="cite-heading">
<h2 id="cite-heading">Cite this entry</h2>
<p class="citation"><%= it.citation %></p>
</section>
<%~ include('@foot', it) %>`,
  attachment: `<%~ include('@head', it) %>
<% if (it.moderation) { %><%~ include('@moderation', it.moderation) %><% } %>
<p><%= it.kindName %> of <a href="<%= it.featureHref %>"><%= it.featureLabel %></a></p>
<% if (it.image) { %><figure class="picture"><a href="<%= it.image.file %>"><img src="<%= it.image.file %>" alt="<%= it.image.title %>" width="1200" height="800"></a>
<% if (it.image.description) { %><figcaption><%= it.image.description %></figcaption><% } %></figure><% } %>
<% if (it.facts.length > 0) { %><dl class="facts">
<% for (const f of it.facts) { %><dt><%= f.label %></dt><dd><% if (f.href) { %><a href="<%= f.href %>" rel="license"><%= f.value %></a><% } else { %><%= f.value %><% } %></dd>
<% } %></dl><% } %>
<% if (it.html !== null) { %><div class="body document"><%~ it.html %></div><% } %>
<% if (it.url) { %><p><a href="<%= it.url %>" rel="nofollow noopener noreferrer">Watch the video: <%= it.url %></a></p><% } %>
<section aria-labelledby="cite-heading">
<h2 id="cite-heading">Cite this entry</h2>
<p class="citation"><%= it.citation %></p>
</section>
<p><a href="<%= it.featureHref %>">← Back to <%= it.featureLabel %></a></p>
<%~ include('@foot', it) %>`,
  about: `<%~ include('@head', it) %>
<p class="lead"><%= it.description %></p>
<%~ include('@searchbox', { action: it.searchHref, q: '', hidden: [] }) %>
<p><a class="button" href="<%= it.page.map %>">Explore the map</a></p>
<p class="muted"><%= it.counts %></p>
<% if (it.categories.length > 0) { %><section aria-labelledby="categories-heading">
<h2 id="categories-heading">Categories</h2>
<ul class="browse">
<% for (const c of it.categories) { %><li><a href="<%= c.href %>"><%= c.name %></a> <span class="muted"><%= c.count %></span></li>
<% } %></ul>
</section><% } %>
<% if (it.periods.length > 0) { %><section aria-labelledby="periods-heading">
<h2 id="periods-heading">Periods</h2>
<ul class="browse">
<% for (const p of it.periods) { %><li><a href="<%= p.href %>"><%= p.label %></a></li>
<% } %></ul>
</section><% } %>
<% if (it.streets.length > 0) { %><section aria-labelledby="streets-heading">
<h2 id="streets-heading">Streets</h2>
<ul class="browse streets">
<% for (const s of it.streets) { %><li><a href="<%= s.href %>"><%= s.name %></a> <span class="muted"><%= s.count %></span></li>
<% } %></ul>
</section><% } %>
<section aria-labelledby="data" class="data">
<h2 id="data">The data</h2>
<p>Everything here is open data, for maps, apps and GIS:</p>
<ul>
<li><a href="<%= it.links.api %>">The JSON API</a> (<a href="<%= it.links.apiDocs %>">its reference</a>)</li>
<li><a href="<%= it.links.ogc %>">OGC API – Features</a>, for QGIS, GDAL and ArcGIS (<a href="<%= it.links.ogcDocs %>">its reference</a>)</li>
<li>Downloads of every building and place: <a href="<%= it.links.gpkg %>">GeoPackage</a>, <a href="<%= it.links.geojson %>">GeoJSON</a>, <a href="<%= it.links.csv %>">CSV</a></li>
<li><a href="<%= it.links.tiles %>">Vector tiles</a> (TileJSON)</li>
</ul>
</section>
<%~ include('@foot', it) %>`,
  search: `<%~ include('@head', it) %>
<%~ include('@searchbox', { action: it.action, q: it.q, hidden: it.hidden }) %>
<% if (it.narrowed.length > 0) { %><p>Only <% it.narrowed.forEach((n, i) => { %><%= i > 0 ? ', ' : '' %><%= n.label %> (<a href="<%= n.without %>">show all</a>)<% }) %>.</p><% } %>
<p role="status"><%= it.summary %></p>
<% if (it.matchesMap) { %><figure class="minimap results-map">
<svg viewBox="<%= it.matchesMap.viewBox %>" role="img" aria-labelledby="results-caption" xmlns="http://www.w3.org/2000/svg">
<rect class="ground" x="0" y="0" width="100%" height="100%"/>
<% for (const s of it.matchesMap.shapes) { %><path d="<%= s.d %>" fill-rule="evenodd"/>
<% } %></svg>
<figcaption id="results-caption">Where this page's results are.</figcaption>
</figure><% } %>
<ol class="results" start="<%= it.start %>">
<% for (const r of it.results) { %><li class="result">
<% if (r.thumbnail) { %><img src="<%= r.thumbnail %>" alt="" width="96" height="64" loading="lazy"><% } else { %><span class="nothumb" aria-hidden="true"></span><% } %>
<div><h2><a href="<%= r.href %>"><%= r.title %></a></h2>
<p class="muted"><%= r.facts %></p></div>
</li>
<% } %></ol>
<% if (it.prevHref || it.nextHref) { %><%~ include('@pager', { label: 'Pages of results', prevHref: it.prevHref, nextHref: it.nextHref, pageText: it.pageText }) %><% } %>
<%~ include('@foot', it) %>`,
  error: `<%~ include('@head', it) %>
<p class="lead"><%= it.sentence %></p>
<p>Try <a href="<%= it.page.search %>">searching the catalogue</a>, the <a href="<%= it.page.map %>">map</a> or <a href="<%= it.page.home %>">the home page</a>.</p>
<p class="muted">Status <%= it.status %><% if (it.requestId) { %> · request <code><%= it.requestId %></code><% } %></p>
<%~ include('@foot', it) %>`,
};

/** Every page for people: the OGC face's and the site's here, the contributors' in render/contribute/. */
export const TEMPLATES: Readonly<Record<string, string>> = { ...PAGE_TEMPLATES, ...CONTRIBUTE_TEMPLATES };

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

export type PageName = 'landing' | 'conformance' | 'collections' | 'collection' | 'items' | 'feature' | 'attachment' | 'about' | 'search' | 'error' | 'account-form' | 'account' | 'password-form' | 'reset-issue' | 'contribute-form' | 'moderate' | 'history';

export function renderPage(name: PageName, data: object): string {
  return compiledTemplates().render(`@${name}`, data);
}

/** JSON for a <script type="application/ld+json"> block: `<`, `>`, `&` as \\u escapes. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
