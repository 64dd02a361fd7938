// The style sheet of every page for people (the site's and /ogc/'s), served by us
// (/ogc/style.css): readable, high contrast (WCAG AA and more), one column on a phone, no
// element wider than a 390 px screen (long words and URLs wrap, wide tables scroll in a box).
export const PAGE_CSS = `:root{--ink:#1b1f24;--muted:#4a5563;--line:#d0d7de;--accent:#0b57a4;--paper:#fff;--soft:#f4f6f8;--shape:#c0392b}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--paper)}
a{color:var(--accent)}a:focus-visible,[tabindex]:focus-visible{outline:3px solid #f0a202;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
header.site,footer.site{background:var(--soft);border-bottom:1px solid var(--line);padding:.5rem 1.25rem}
.bar{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.25rem 1rem;max-width:72rem;margin:0 auto}
.brand{font-weight:700;font-size:1.1rem;text-decoration:none;color:var(--ink)}
.sitenav{list-style:none;margin:0;padding:0;display:flex;gap:1rem}
.sitenav a{display:inline-block;padding:.35rem 0}
header.site nav[aria-label=Breadcrumbs]{max-width:72rem;margin:.25rem auto 0}
main,footer.site p{overflow-wrap:anywhere}
footer.site{border-top:1px solid var(--line);border-bottom:0;margin-top:2rem;font-size:.9rem;color:var(--muted)}
.crumbs{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem;font-size:.95rem}
.crumbs a{display:inline-block;padding:.2rem 0}
.crumbs li+li::before{content:"›";margin-right:.25rem;color:var(--muted)}
main{max-width:72rem;margin:0 auto;padding:1rem 1.25rem}
h1{font-size:1.9rem;line-height:1.2;margin:.5rem 0 1rem}h2{font-size:1.3rem;margin:1.75rem 0 .5rem}
.lead{font-size:1.1rem}.muted{color:var(--muted)}
.split{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,22rem);gap:1.5rem;align-items:start}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1rem}
.facts dt{font-weight:600}.facts dd{margin:0}
.actions{padding-left:1.1rem}
.minimap{margin:0;border:1px solid var(--line);background:var(--soft);padding:.5rem}
.minimap svg{display:block;width:100%;height:auto;max-height:22rem}
.minimap .ground{fill:#eef1f4}.minimap path{fill:var(--shape);fill-opacity:.55;stroke:var(--shape);stroke-width:3;vector-effect:non-scaling-stroke}
.minimap a:hover path,.minimap a:focus path{fill-opacity:.9}
.minimap figcaption{font-size:.85rem;color:var(--muted);margin-top:.25rem}
.gallery{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:1rem}
.gallery img{width:100%;height:auto;aspect-ratio:3/2;object-fit:contain;background:var(--soft);border:1px solid var(--line)}
.gallery p{margin:.25rem 0 0}.credit{font-size:.85rem;color:var(--muted)}
.context{margin:0;border:1px solid var(--line);background:var(--soft);padding:.5rem}
.context svg{display:block;width:100%;height:auto;max-height:24rem}
.context .ground{fill:#f2efe9}.context .neighbour{fill:#d5d0c7;stroke:#8a8377;stroke-width:1;vector-effect:non-scaling-stroke}
.context .self{fill:var(--shape);stroke:#7a1f16;stroke-width:2;vector-effect:non-scaling-stroke}
.context .street{fill:#1b1f24;paint-order:stroke;stroke:#fff;stroke-width:3px;font-family:system-ui,sans-serif;font-style:italic}
.context .scale rect{fill:#1b1f24}.context .scale text{font:22px system-ui,sans-serif;fill:#1b1f24}
.context figcaption{font-size:.85rem;color:var(--muted);margin-top:.25rem}
.nearby{padding-left:1.1rem}.nearby li{margin:.2rem 0}
.citation{background:var(--soft);border-left:4px solid var(--line);padding:.5rem .75rem}
.searchbox{margin:1rem 0}.searchbox label{display:block;font-weight:600;margin-bottom:.25rem}
.searchbox .row{display:flex;gap:.5rem;max-width:36rem}
.searchbox input{flex:1;min-width:0;font:inherit;padding:.45rem .6rem;border:1px solid #6b7480;border-radius:4px}
.searchbox button,.button{font:inherit;background:var(--accent);color:#fff;border:0;padding:.45rem .9rem;border-radius:4px;text-decoration:none;display:inline-block;cursor:pointer}
.browse{list-style:none;padding:0;columns:15rem auto;column-gap:2rem}.browse li{break-inside:avoid;padding:.15rem 0}
.results{list-style:none;padding:0}.result{display:flex;gap:.75rem;align-items:flex-start;border-bottom:1px solid var(--line);padding:.6rem 0}
.result img,.nothumb{flex:none;width:96px;height:64px;object-fit:contain;background:var(--soft);border:1px solid var(--line)}
.result h2{font-size:1.05rem;margin:0}.result p{margin:.15rem 0 0}
.results-map{max-width:28rem}
.picture{margin:1rem 0}.picture img{display:block;width:100%;max-width:60rem;height:auto;aspect-ratio:3/2;object-fit:contain;background:var(--soft)}
.zoom{position:relative;max-width:60rem}.zoom-viewer{position:absolute;inset:0}.zoom-open .zoom-viewer{background:var(--soft)}
.zoom-controls{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.5rem 0 1rem}.zoom-hint{flex-basis:100%;margin:0;font-size:.9rem}
.iiif-logo{vertical-align:-.3em;margin-right:.35em}
.viewer main{max-width:none}.compare-viewer{position:relative;height:80vh;min-height:24rem;border:1px solid var(--line)}
.compare-workspace{position:absolute;inset:0;display:flex;background:#dadada}.compare-workspace .mirador-viewer{flex-grow:1;position:relative}
.document{border-top:1px solid var(--line);margin-top:1.5rem}
.footnote{font-size:.9rem;color:var(--muted)}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
thead th{background:var(--soft)}
.scroll{overflow-x:auto}
.pager{display:flex;gap:1.5rem;margin:1rem 0}
.cards li{margin:.35rem 0}.card{border-bottom:1px solid var(--line)}
.plain{padding-left:1.1rem;word-break:break-all}
.moderation{border:2px solid var(--accent);border-radius:4px;padding:.25rem 1rem 1rem;margin:0 0 2rem;background:var(--soft)}
.contribute label,.moderation label,.account label{display:block;font-weight:600;margin-bottom:.2rem}
.contribute input:not([type=radio]),.contribute textarea,.moderation input:not([type=radio]),.moderation textarea{width:100%;max-width:40rem;box-sizing:border-box;font:inherit;padding:.3rem}
.contribute fieldset label,.moderation fieldset label{display:inline;font-weight:normal}.contribute span.muted,.moderation span.muted{display:block;font-size:.9rem}.problem{color:#a00;font-weight:600}
.edit label,.edit legend{display:block;font-weight:600;margin-bottom:.2rem}.edit p{margin:.9rem 0 .2rem}.edit p.hint,.edit p.problem{margin:.1rem 0 .6rem;font-size:.9rem}
.edit input:not([type=radio]):not([type=checkbox]),.edit textarea,.edit select{width:100%;max-width:40rem;box-sizing:border-box;font:inherit;padding:.3rem}.edit textarea#geometry{font-family:monospace;font-size:.8rem}
.edit fieldset.choices label{display:inline-block;font-weight:normal;margin:.15rem 1rem .15rem 0}.edit button,.editor-bar a{font:inherit}
.editor-bar,.edit-links{display:flex;flex-wrap:wrap;gap:.4rem 1rem;padding:.4rem .75rem;margin:0 0 1rem;border:2px solid var(--accent);border-radius:4px;background:var(--soft)}
.notice{border-left:4px solid #2e7d32;padding:.4rem .75rem;background:#eef7ee}.preview{border:1px dashed var(--line);padding:0 1rem .5rem;margin:1rem 0}.conflict{border:2px solid #a00;border-radius:4px;padding:.25rem 1rem 1rem;margin:0 0 1.5rem}.compare td{white-space:pre-wrap;word-break:break-word}
.changes{list-style:none;padding:0}.changes>li{border-top:1px solid var(--line);padding:.5rem 0 1rem}.changes h2,.changes h3{font-size:1.1rem;margin:.5rem 0 .25rem}.changes .who{margin:0 0 .5rem}
.fields{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2rem 1rem;margin:.5rem 0}.fields div{display:contents}.fields dt{font-weight:600}.fields dd{margin:0}
.touched,.problems{padding-left:1.1rem}.undo button,.preview button,.upload button{font:inherit;padding:.35rem .8rem}
.upload label{display:block;font-weight:600;margin-bottom:.2rem}.upload input,.upload textarea{width:100%;max-width:40rem;font:inherit;padding:.3rem}.upload span.muted{display:block;font-size:.9rem}
@media (max-width:700px){header.site,footer.site{padding:.5rem .75rem}.result img,.nothumb{width:72px;height:48px}.split{grid-template-columns:1fr}h1{font-size:1.5rem}main{padding:.75rem}.facts{grid-template-columns:1fr}.facts dd{margin-bottom:.4rem}.fields{grid-template-columns:1fr}.fields dd{margin-bottom:.4rem}}
`;
