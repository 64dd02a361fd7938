// The visitors' site's pages (a record's, the home, the search, an error), rendered with the
// page layer's shared templates (pages/templates.ts). An attachment's page under review shows
// the moderators' form (render/contribute/templates.ts).
import { pageTemplates } from '../../pages/templates.js';
import { MODERATION_PARTIALS } from '../contribute/templates.js';

export type SitePageName = 'feature' | 'attachment' | 'compare' | 'about' | 'search' | 'error';

export const SITE_PAGES = pageTemplates<SitePageName>({
  ...MODERATION_PARTIALS,
  // A IIIF manifest's link, with the IIIF logo drawn here (three I's and an F, in its blue and red).
  '@iiif': `<a class="iiif" href="<%= it.href %>" type="<%= it.type %>"><svg class="iiif-logo" viewBox="0 0 26 20" width="26" height="20" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">
<g fill="#2873ab"><circle cx="2.5" cy="2.5" r="2"/><rect x="1" y="6" width="3" height="13"/><circle cx="8.5" cy="2.5" r="2"/><rect x="7" y="6" width="3" height="13"/><circle cx="14.5" cy="2.5" r="2"/><rect x="13" y="6" width="3" height="13"/></g>
<path fill="#ed1d33" d="M19 1h7v3.5h-3.5v3.5h3v3.5h-3v7.5h-3.5z"/></svg><%= it.label %></a>`,
  '@searchbox': `<form class="searchbox" role="search" action="<%= it.action %>" method="get">
<label for="q">Search the catalogue</label>
<div class="row"><input id="q" name="q" type="search" maxlength="200"<% if (it.q) { %> value="<%= it.q %>"<% } else { %> placeholder="A street, a building, a name…"<% } %>><button type="submit">Search</button></div>
<% for (const h of it.hidden) { %><input type="hidden" name="<%= h.name %>" value="<%= h.value %>">
<% } %></form>`,
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
<% if (it.iiif) { %><li><%~ include('@iiif', { href: it.iiif.manifest.href, type: it.iiif.manifest.type, label: 'Its pictures as a IIIF manifest' }) %></li>
<% } %></ul>
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
<% if (it.iiif) { %><p><a href="<%= it.iiif.compare %>">Compare its pictures side by side</a>, zooming into each.</p>
<% } %><ul class="gallery">
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
<% if (it.image) { %><figure class="picture"><% if (it.image.zoom) { %><div class="zoom" data-zoom-info="<%= it.image.zoom.info %>" data-zoom-label="<%= it.image.zoom.label %>"><% } %><a href="<%= it.image.file %>"><img src="<%= it.image.file %>" alt="<%= it.image.title %>" width="1200" height="800"></a><% if (it.image.zoom) { %></div><% } %>
<% if (it.image.description) { %><figcaption><%= it.image.description %></figcaption><% } %></figure><% } %>
<% if (it.facts.length > 0) { %><dl class="facts">
<% for (const f of it.facts) { %><dt><%= f.label %></dt><dd><% if (f.href) { %><a href="<%= f.href %>" rel="license"><%= f.value %></a><% } else { %><%= f.value %><% } %></dd>
<% } %></dl><% } %>
<% if (it.manifest) { %><ul class="actions"><li><%~ include('@iiif', { href: it.manifest.href, type: it.manifest.type, label: 'This picture as a IIIF manifest' }) %></li></ul>
<% } %><% if (it.html !== null) { %><div class="body document"><%~ it.html %></div><% } %>
<% if (it.url) { %><p><a href="<%= it.url %>" rel="nofollow noopener noreferrer">Watch the video: <%= it.url %></a></p><% } %>
<section aria-labelledby="cite-heading">
<h2 id="cite-heading">Cite this entry</h2>
<p class="citation"><%= it.citation %></p>
</section>
<p><a href="<%= it.featureHref %>">← Back to <%= it.featureLabel %></a></p>
<% if (it.image && it.image.zoom) { %><script type="module" src="<%= it.image.zoom.script %>"></script>
<% } %><%~ include('@foot', it) %>`,
  compare: `<%~ include('@head', it) %>
<p>Each picture in a window of its own, to zoom into and move around side by side. <%~ include('@iiif', { href: it.manifest.href, type: it.manifest.type, label: 'The IIIF manifest' }) %>, to open them in another viewer.</p>
<div id="compare-viewer" class="compare-viewer" role="region" aria-label="<%= it.viewerLabel %>" data-compare-manifest="<%= it.manifest.href %>" data-compare-canvases="<%= it.canvases %>" hidden></div>
<ul class="compare-list" data-compare-fallback>
<% for (const p of it.pictures) { %><li><a href="<%= p.href %>"><%= p.title %></a> <span class="muted"><%= p.credit %></span></li>
<% } %></ul>
<p><a href="<%= it.featureHref %>">← Back to <%= it.featureLabel %></a></p>
<% if (it.assets) { %><script type="module" src="<%= it.assets.compare %>"></script>
<% } %><%~ include('@foot', it) %>`,
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
});
