// The contributors' pages (issue 37) as Eta templates, rendered with the page layer's shared
// ones (pages/templates.ts: escaping on, the same raw-output rule). Each form carries the
// hidden `csrf` field its POST is checked by.
import { pageTemplates } from '../../pages/templates.js';

const CONTRIBUTE_TEMPLATES = {
  '@problem': `<% if (it.problem) { %><p class="problem" role="alert" id="problem"><%= it.problem %></p>
<% } %>`,
  'account-form': `<%~ include('@head', it) %>
<% if (it.signedInAs) { %><p class="notice">You are signed in as <strong><%= it.signedInAs.username %></strong>: <a href="<%= it.signedInAs.href %>">your account</a>.</p>
<% } %><% if (it.next) { %><p>Sign in, or create an account, to go on to the form you opened.</p>
<% } %><%~ include('@problem', { problem: it.problem }) %><form class="account" method="post" action="<%= it.action %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<% if (it.next) { %><input type="hidden" name="next" value="<%= it.next %>">
<% } %><p><label for="username">Account name</label>
<input id="username" name="username" autocomplete="username" required maxlength="40" value="<%= it.username %>"<% if (it.nameHint || it.problem) { %> aria-describedby="<%= [it.nameHint ? 'username-hint' : '', it.problem ? 'problem' : ''].filter(Boolean).join(' ') %>"<% } %>>
<% if (it.nameHint) { %><span class="muted" id="username-hint"><%= it.nameHint %></span><% } %></p>
<p><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="<%= it.passwordAutocomplete %>" required maxlength="200"<% if (it.passwordHint) { %> aria-describedby="password-hint"<% } %>>
<% if (it.passwordHint) { %><span class="muted" id="password-hint"><%= it.passwordHint %></span><% } %></p>
<p><button type="submit"><%= it.submit %></button></p>
</form>
<p><%= it.other.text %> <a href="<%= it.other.href %>"><%= it.other.label %></a></p>
<%~ include('@foot', it) %>`,
  account: `<%~ include('@head', it) %>
<p>Signed in as <strong><%= it.username %></strong> (<%= it.role %>).</p>
<form method="post" action="<%= it.signOut %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<button type="submit">Sign out</button>
</form>
<p><a href="<%= it.password %>">Change your password</a></p>
<h2>Your contributions</h2>
<% if (it.contributions.length === 0) { %><p>You have sent no contributions yet. Open a building's page to add a picture, some writing or a video link.</p>
<% } else { %><ul class="contributions">
<% for (const c of it.contributions) { %><li><a href="<%= c.own %>"><%= c.title %></a>
<span class="muted"><%= c.kind %> about <a href="<%= c.featureHref %>"><%= c.featureLabel %></a>, sent <%= c.sent %>:</span> <strong class="state state-<%= c.state %>"><%= c.stateText %></strong><% if (c.href) { %> (<a href="<%= c.href %>">its page</a>)<% } %><% if (c.reason) { %> <span class="reason">(<%= c.reason %>)</span><% } %></li>
<% } %></ul><% } %>
<h2 id="sessions-heading">Where you are signed in</h2>
<table class="sessions" aria-labelledby="sessions-heading">
<thead><tr><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col">Browser</th></tr></thead>
<tbody>
<% for (const s of it.sessions) { %><tr<% if (s.current) { %> class="current"<% } %>><td><time datetime="<%= s.started.iso %>"><%= s.started.text %></time></td><td><time datetime="<%= s.seen.iso %>"><%= s.seen.text %></time></td><td><% if (s.current) { %><strong>This browser</strong><% } else { %>Another<% } %></td></tr>
<% } %></tbody>
</table>
<% if (it.endOthers) { %><form method="post" action="<%= it.endOthers %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<button type="submit">Sign out everywhere else</button>
</form><% } %>
<% if (it.queue) { %><p><a href="<%= it.queue %>">The editors' queue</a> · <a href="<%= it.recent %>">Latest changes</a> · <a href="<%= it.changes %>">Apply a change file</a> · <a href="<%= it.issueReset %>">Issue a password reset link</a></p><% } %>
<%~ include('@foot', it) %>`,
  'password-form': `<%~ include('@head', it) %>
<p><%= it.intro %></p>
<%~ include('@problem', { problem: it.problem }) %><form class="account" method="post" action="<%= it.action %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<% if (it.current) { %><p><label for="current">Current password</label>
<input id="current" name="current" type="password" autocomplete="current-password" required maxlength="200"<% if (it.problemField === 'current') { %> aria-describedby="problem"<% } %>></p>
<% } %><p><label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required maxlength="200" aria-describedby="password-hint<% if (it.problemField === 'password') { %> problem<% } %>">
<span class="muted" id="password-hint"><%= it.passwordHint %></span></p>
<p><button type="submit"><%= it.submit %></button></p>
</form>
<%~ include('@foot', it) %>`,
  'reset-issue': `<%~ include('@head', it) %>
<p><%= it.rule %></p>
<p>A link can be used once, for an hour; a new link for the same account replaces the one before. It signs nobody in, but whoever holds it can set the account's password: give it to the account's owner yourself.</p>
<% if (it.issued) { %><section class="issued" aria-labelledby="issued-heading">
<h2 id="issued-heading">A link for <%= it.issued.username %></h2>
<div class="account"><p><label for="link">Copy this link and give it to them</label>
<input id="link" readonly size="60" value="<%= it.issued.url %>"></p></div>
<p class="muted">It can be used until <time datetime="<%= it.issued.expires.iso %>"><%= it.issued.expires.text %></time>.</p>
</section>
<% } %><%~ include('@problem', { problem: it.problem }) %><form class="account" method="post" action="<%= it.action %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<p><label for="username">Account name</label>
<input id="username" name="username" required maxlength="40" autocomplete="off" value="<%= it.username %>"<% if (it.problem) { %> aria-describedby="problem"<% } %>></p>
<p><button type="submit">Issue a reset link</button></p>
</form>
<%~ include('@foot', it) %>`,
  '@fields': `<p><label for="title">Title</label>
<input id="title" name="title" required maxlength="200" value="<%= it.fields.title %>"></p>
<% if (it.kind === 'image') { %><% if (it.upload) { %><p><label for="file">The picture</label>
<input id="file" name="file" type="file" required accept="image/jpeg,image/png,image/webp" aria-describedby="file-hint">
<span class="muted" id="file-hint">JPEG, PNG or WebP, at most 20 MB and 50 megapixels. Its location and camera details are removed before anyone sees it.</span></p><% } %>
<p><label for="description">What it shows</label>
<textarea id="description" name="description" rows="4" maxlength="2000"><%= it.fields.description %></textarea></p>
<p><label for="created">When it was made</label>
<input id="created" name="created" type="date" value="<%= it.fields.created %>" aria-describedby="created-hint"> <span class="muted" id="created-hint">The day, as YYYY-MM-DD (for example 1998-06-21), not in the future; leave it empty when not known.</span></p>
<% if (it.licenceFixed) { %><p><strong>How others may use it:</strong> <%= it.licenceFixed %> (the contributor's choice, which only they can change).</p>
<% } else { %><fieldset><legend>How others may use it</legend>
<p><input type="radio" id="licence-copyright" name="licence" value="copyright"<% if (it.fields.licence !== 'open') { %> checked<% } %>> <label for="licence-copyright">I keep the copyright: shown here with my name, no other use</label></p>
<p><input type="radio" id="licence-open" name="licence" value="open"<% if (it.fields.licence === 'open') { %> checked<% } %>> <label for="licence-open">Under this site's licence</label></p>
</fieldset><% } %>
<% } else if (it.kind === 'document') { %><p><label for="body">Writing</label>
<textarea id="body" name="body" rows="14" required maxlength="20000" aria-describedby="body-hint"><%= it.fields.body %></textarea>
<span class="muted" id="body-hint"><strong>How to format:</strong> leave an empty line between paragraphs; *one star* around words for emphasis, **two** for strong; [words](https://…) for a link (a web address alone becomes one too); a line starting with "- " for a list. Anything else, HTML included, is shown as typed. Preview it before sending.</span></p>
<% } else { %><p><label for="url">Address of the video's page</label>
<input id="url" name="url" type="url" required value="<%= it.fields.url %>" aria-describedby="url-hint">
<span class="muted" id="url-hint">A YouTube or Vimeo page, starting https://</span></p><% } %>`,
  'contribute-form': `<%~ include('@head', it) %>
<p>About <a href="<%= it.featureHref %>"><%= it.featureLabel %></a>. An editor reads everything before it is published; until then it is listed under <a href="<%= it.accountHref %>">your account</a> and shown nowhere else.</p>
<%~ include('@problem', { problem: it.problem }) %><form class="contribute" method="post" action="<%= it.action %>"<% if (it.multipart) { %> enctype="multipart/form-data"<% } %>>
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<%~ include('@fields', { kind: it.kind, fields: it.fields, upload: true, licenceFixed: null }) %>
<p><% if (it.kind !== 'image') { %><button type="submit" name="action" value="preview">Preview</button> <% } %><button type="submit" name="action" value="send">Send for review</button></p>
</form>
<% if (it.preview) { %><%~ include('@preview', { ...it.preview, note: 'Nothing is sent until you choose Send for review.' }) %><% } %>
<%~ include('@foot', it) %>`,
  '@preview': `<section class="preview" aria-labelledby="preview-heading">
<h2 id="preview-heading">Preview: as it will be published</h2>
<p class="muted"><%= it.note %></p>
<% if (it.html !== null) { %><article class="document"><h3><%= it.title %></h3><div class="body"><%~ it.html %></div></article>
<% } else { %><p><a href="<%= it.url %>" rel="nofollow noopener noreferrer"><%= it.title %></a></p>
<% } %></section>`,
  'own-contribution': `<%~ include('@head', it) %>
<% if (it.notice) { %><p class="notice" role="status"><%= it.notice %></p>
<% } %><p><%= it.kindName %> about <a href="<%= it.featureHref %>"><%= it.featureLabel %></a>, sent <%= it.sent %>: <strong class="state state-<%= it.state %>"><%= it.stateText %></strong><% if (it.href) { %> (<a href="<%= it.href %>">its page</a>)<% } %>.<% if (it.reason) { %> The editor's reason: <span class="reason"><%= it.reason %></span><% } %></p>
<% if (it.picture) { %><figure class="picture"><img src="<%= it.picture %>" alt="<%= it.fields.title %>"></figure>
<% } %><% if (it.preview) { %><%~ include('@preview', { ...it.preview, note: 'As it will be published once an editor approves it.' }) %>
<% } %><%~ include('@problem', { problem: it.problem }) %><% if (it.pending) { %><h2>Correct it</h2>
<form class="contribute" method="post" action="<%= it.action %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<input type="hidden" name="seen" value="<%= it.seen %>">
<%~ include('@fields', { kind: it.kind, fields: it.fields, upload: false, licenceFixed: null }) %>
<p><button type="submit">Save the correction</button></p>
</form>
<h2>Withdraw it</h2>
<form method="post" action="<%= it.withdraw %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<p>An editor will not see it again<% if (it.picture) { %>, and the picture is deleted<% } %>.</p>
<p><button type="submit">Withdraw it</button></p>
</form><% } %>
<p><a href="<%= it.accountHref %>">Back to your account</a></p>
<%~ include('@foot', it) %>`,
  '@moderation': `<section class="moderation" aria-labelledby="moderation-heading">
<h2 id="moderation-heading"><%= it.heading %></h2>
<p>Sent by <strong><%= it.username %></strong> on <%= it.sent %>. Below is the page as it will be published.</p>
<% if (it.saved) { %><p class="notice" role="status">Saved: the correction is kept. It still waits for a decision.</p>
<% } %><%~ include('@problem', { problem: it.problem }) %><% if (it.pending) { %><form method="post" action="<%= it.approve %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<input type="hidden" name="seen" value="<%= it.seen %>">
<%~ include('@fields', { kind: it.kind, fields: it.fields, upload: false, licenceFixed: it.licenceFixed }) %>
<p><button type="submit" name="action" value="approve">Approve and publish</button> <button type="submit" name="action" value="save">Save the correction</button></p>
</form>
<form method="post" action="<%= it.reject %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<input type="hidden" name="seen" value="<%= it.seen %>">
<p><label for="reason">Why it is not published (the contributor reads this)</label>
<input id="reason" name="reason" required maxlength="500"></p>
<p><button type="submit">Reject</button></p>
</form><% } %>
<p><a href="<%= it.queue %>">Back to the queue</a><% for (const l of it.links) { %> · <a href="<%= l.href %>"><%= l.label %></a><% } %></p>
</section>`,
  moderate: `<%~ include('@head', it) %>
<% if (it.items.length === 0) { %><p>Nothing is waiting for review.</p>
<% } else { %><table class="queue">
<thead><tr><th scope="col">Sent</th><th scope="col">What</th><th scope="col">About</th><th scope="col">By</th></tr></thead>
<tbody>
<% for (const c of it.items) { %><tr><td><%= c.sent %></td><td><a href="<%= c.href %>"><%= c.title %></a> <span class="muted"><%= c.kind %></span></td><td><a href="<%= c.featureHref %>"><%= c.featureLabel %></a></td><td><%= c.username %></td></tr>
<% } %></tbody>
</table><% } %>
<%~ include('@foot', it) %>`,
};

export type ContributePageName = Exclude<keyof typeof CONTRIBUTE_TEMPLATES, `@${string}`>;

export const CONTRIBUTE_PAGES = pageTemplates<ContributePageName>(CONTRIBUTE_TEMPLATES);

/** The moderators' form and its parts: the site's page of an attachment under review shows it. */
export const MODERATION_PARTIALS = {
  '@problem': CONTRIBUTE_TEMPLATES['@problem'],
  '@fields': CONTRIBUTE_TEMPLATES['@fields'],
  '@moderation': CONTRIBUTE_TEMPLATES['@moderation'],
};
