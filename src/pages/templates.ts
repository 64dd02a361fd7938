// The templates every page for people shares (the head and the shell's header, the footer,
// a pager, a footprint drawing) and the engine that renders each face's own with them: Eta
// with escaping on (`<%= %>` escapes every interpolation). Raw output (`<%~ %>`) is used only
// for the includes of templates, a document body already sanitised (sanitise.ts) and the
// JSON-LD block (its `<` escaped as \u003c): test/http/ogc-html.test.ts holds every face's
// templates to that (RAW_ALLOWED).
import { Eta } from 'eta';

/** The partials every face's pages include: each face's templates are loaded with them. */
const SHARED_TEMPLATES: Readonly<Record<string, string>> = {
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
<% for (const l of it.page.accountNav) { %><li><a href="<%= l.href %>"><%= l.label %></a></li>
<% } %></ul></nav>
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
};

/** Which raw interpolations a template may hold (the test of the templates reads this too): includes, a sanitised body, the JSON-LD, and the editors' footprint field and its assets (render/edit/, escaped where made). */
export const RAW_ALLOWED = [/^include\('@[a-z]+', [^]*\)$/, /^it\.page\.jsonLd$/, /^d\.html$/, /^it\.html$/, /^it\.footprint$/, /^it\.assets$/];

/** One face's pages: its templates (with the shared ones) and how to render one by name. */
export interface PageTemplates<Name extends string> {
  readonly templates: Readonly<Record<string, string>>;
  render(name: Name, data: object): string;
}

/** A face's templates, compiled at the first page asked for, not at import: a server's start need not wait for them. */
export function pageTemplates<Name extends string>(own: Readonly<Record<Name, string>> & Readonly<Record<`@${string}`, string>>): PageTemplates<Name> {
  const templates: Readonly<Record<string, string>> = { ...SHARED_TEMPLATES, ...own };
  let eta: Eta | undefined;
  const compiled = (): Eta => {
    if (eta) return eta;
    eta = new Eta({ autoEscape: true, autoTrim: false, cache: true });
    for (const [name, text] of Object.entries(templates)) eta.loadTemplate(name.startsWith('@') ? name : `@${name}`, text);
    return eta;
  };
  return { templates, render: (name, data) => compiled().render(`@${name}`, data) };
}

/** JSON for a <script type="application/ld+json"> block: `<`, `>`, `&` as \\u escapes. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
