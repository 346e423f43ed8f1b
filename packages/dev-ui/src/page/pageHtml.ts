/**
 * The dev UI's one page: static markup only (no data is ever put into it on the server); the
 * script fills it in with DOM calls and text nodes, never with HTML strings.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>adkit dev UI</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/page.css">
</head>
<body>
<header class="top">
  <span class="brand">adkit <b>dev UI</b></span>
  <label>Agent <select id="app" aria-label="agent"></select></label>
  <label>User <input id="user" aria-label="user id" spellcheck="false" autocomplete="off"></label>
  <label>Session <select id="session" aria-label="session"></select></label>
  <button id="new-session" type="button">New session</button>
  <span id="status" class="status" role="status"></span>
</header>
<div id="problem" class="problem" role="alert" hidden><span id="problem-text"></span><button id="problem-close" type="button" aria-label="dismiss">×</button></div>
<main>
  <section id="conversation" aria-label="conversation">
    <div id="events" class="events" aria-live="polite"></div>
    <div id="pending" class="pending" aria-label="waiting for you"></div>
    <form id="composer" class="composer">
      <textarea id="message" rows="2" placeholder="Message the agent (Enter sends, Shift+Enter for a new line)" aria-label="message"></textarea>
      <button id="send" type="submit">Send</button>
    </form>
  </section>
  <aside id="inspector" aria-label="inspector">
    <nav class="tabs" role="tablist">
      <button type="button" role="tab" data-tab="timeline" aria-selected="true">Timeline</button>
      <button type="button" role="tab" data-tab="state" aria-selected="false">State</button>
      <button type="button" role="tab" data-tab="artifacts" aria-selected="false">Artifacts</button>
      <button type="button" role="tab" data-tab="request" aria-selected="false">Model request</button>
    </nav>
    <section id="timeline" class="panel" role="tabpanel"></section>
    <section id="state" class="panel" role="tabpanel" hidden></section>
    <section id="artifacts" class="panel" role="tabpanel" hidden></section>
    <section id="request" class="panel" role="tabpanel" hidden></section>
  </aside>
</main>
<script src="assets/page.js"></script>
</body>
</html>
`;
