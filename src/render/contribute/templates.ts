// The contributors' pages (issue 37) as Eta templates, loaded with the others
// (render/ogc/html/templates.ts: escaping on, the same raw-output rule). Each form carries
// the hidden `csrf` field its POST is checked by.
export const CONTRIBUTE_TEMPLATES: Readonly<Record<string, string>> = {
  '@problem': `<% if (it.problem) { %><p class="problem" role="alert" id="problem"><%= it.problem %></p>
<% } %>`,
  'account-form': `<%~ include('@head', it) %>
<%~ include('@problem', { problem: it.problem }) %><form class="account" method="post" action="<%= it.action %>">
<input type="hidden" name="csrf" value="<%= it.csrf %>">
<p><label for="username">Account name</label>
<input id="username" name="username" autocomplete="username" required maxlength="40" value="<%= it.username %>"<% if (it.problem) { %> aria-describedby="problem"<% } %>></p>
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
<h2>Your contributions</h2>
<% if (it.contributions.length === 0) { %><p>You have sent no contributions yet. Open a building's page to add a picture, some writing or a video link.</p>
<% } else { %><ul class="contributions">
<% for (const c of it.contributions) { %><li><%= c.title %> <span class="muted"><%= c.state %></span></li>
<% } %></ul><% } %>
<%~ include('@foot', it) %>`,
};
