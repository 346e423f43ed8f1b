/** The dev UI's stylesheet. */
export const PAGE_STYLE = String.raw`
:root { --ink: #1d2330; --muted: #667085; --line: #e3e6ec; --bg: #f5f6f8; --model: #4f5fd1; --tool: #23885a; --err: #b3261e; --wait: #c99700; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { height: 100%; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); display: flex; flex-direction: column; }
button, input, select, textarea { font: inherit; }
button { cursor: pointer; border: 1px solid #c8cdd8; background: #fff; border-radius: 6px; padding: 4px 10px; }
button:disabled { opacity: .55; cursor: default; }
code, pre, textarea.json { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
.top { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: center; padding: 8px 14px; background: var(--ink); color: #fff; }
.top label { display: flex; gap: 6px; align-items: center; color: #c9cfdb; }
.top select, .top input { border: 1px solid #3a4254; background: #2a3142; color: #fff; border-radius: 6px; padding: 3px 6px; max-width: 260px; }
.top input { width: 120px; }
.brand { font-size: 15px; margin-right: 6px; }
.status { margin-left: auto; color: #c9cfdb; font-size: 13px; }
.status.running::before { content: ""; display: inline-block; width: 8px; height: 8px; margin-right: 6px; border-radius: 50%; background: #7dd3a0; animation: pulse 1s infinite alternate; }
@keyframes pulse { from { opacity: 1; } to { opacity: .35; } }
.problem { display: flex; gap: 10px; align-items: start; justify-content: space-between; background: #fdecea; color: var(--err); border-bottom: 1px solid #f2b8b5; padding: 6px 14px; white-space: pre-wrap; }
.problem button { border: 0; background: none; color: var(--err); font-size: 18px; line-height: 1; padding: 0 4px; }
main { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(360px, 1fr) minmax(360px, 1fr); }
#conversation { display: flex; flex-direction: column; min-height: 0; border-right: 1px solid var(--line); }
.events { flex: 1; min-height: 0; overflow: auto; padding: 12px 14px; }
.events:empty::before { content: "No events yet: say something to the agent."; color: var(--muted); }
.event { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 7px 10px; margin: 0 0 8px; max-width: 94%; width: fit-content; min-width: 40%; }
.event.from-user { margin-left: auto; background: #e9f0ff; border-color: #cbd9fb; }
.event.streaming { border-style: dashed; }
.event.sending { opacity: .6; }
.event.has-error { border-color: #f2b8b5; }
.task-thread { margin: 0 0 8px 18px; padding: 4px 0 2px 10px; border-left: 3px solid #b9c4f3; }
.task-thread.done { border-left-color: #b5dcc5; }
.task-thread > .meta { margin-bottom: 6px; }
.meta { display: flex; gap: 8px; align-items: baseline; font-size: 12px; color: var(--muted); margin-bottom: 2px; }
.meta .author { font-weight: 600; color: var(--ink); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.omitted { color: var(--muted); font-style: italic; margin-bottom: 8px; }
.call, .response, .progress-body { margin: 5px 0; padding: 4px 8px; border-left: 3px solid var(--model); background: #f6f7fe; border-radius: 0 6px 6px 0; }
.response { border-left-color: var(--tool); background: #f2faf5; }
.response.error, .error { border-left: 3px solid var(--err); }
.response.error { background: #fdecea; }
.response.asked { border-left-color: var(--wait); background: #fff8e6; }
.error { color: var(--err); background: #fdecea; padding: 4px 8px; margin: 4px 0; border-radius: 0 6px 6px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.call.confirm-request { border-left-color: var(--wait); background: #fff8e6; }
.call-head { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.call-head .id { margin-left: auto; color: var(--muted); font-size: 11px; font-family: ui-monospace, monospace; }
.fn { font-weight: 600; }
.hint { color: #6b4e00; }
.badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 9px; background: #e4e7ee; color: #394150; }
.badge.call { background: #dfe3fb; color: #2b3aa8; }
.badge.ok { background: #d7f0e1; color: #1c6b46; }
.badge.err { background: #f9d3cf; color: var(--err); }
.badge.wait { background: #fbeab5; color: #6b4e00; }
.badge.you { background: #e9f0ff; color: #234; }
.actions { font-size: 12px; color: var(--muted); margin-top: 4px; }
details > summary { cursor: pointer; color: #394150; }
details.json-block > summary { font-size: 12px; color: var(--muted); }
.json-tree, details.json ul { list-style: none; margin: 0; padding-left: 14px; font-family: ui-monospace, monospace; font-size: 12.5px; }
details.json > summary { font-family: ui-monospace, monospace; font-size: 12.5px; color: var(--muted); }
.j-key { color: #5b3a8a; }
.j-string { color: #0b6e3a; white-space: pre-wrap; overflow-wrap: anywhere; }
.j-number { color: #1f5fbf; }
.j-boolean { color: #9a3dbf; }
.j-null, .j-empty { color: #888; }
.inline-image { max-width: 260px; max-height: 200px; display: block; border-radius: 6px; margin: 4px 0; }
.progress { border-style: dashed; }
.forming { border-style: dashed; }
.forming .args { margin: 2px 0 0; white-space: pre-wrap; word-break: break-all; font-size: 12.5px; max-height: 140px; overflow: auto; }
.progress .meter { height: 6px; background: #e4e7ee; border-radius: 3px; overflow: hidden; margin: 4px 0; }
.progress .meter > div { height: 100%; background: var(--tool); width: 0; transition: width .2s; }
.progress .log { white-space: pre-wrap; font-size: 12.5px; max-height: 140px; overflow: auto; }
.pending { max-height: 50%; overflow: auto; padding: 0 14px; }
.card { border: 2px solid #e8c15a; background: #fffaf0; border-radius: 10px; padding: 8px 12px; margin: 8px 0; }
.card.long-running { border-color: #9fb3f0; background: #f5f7ff; }
.card h3 { margin: 0 0 4px; font-size: 14px; display: flex; gap: 8px; align-items: center; }
.card p { margin: 4px 0; }
.card label { display: block; font-size: 12px; color: var(--muted); margin-top: 6px; }
.card textarea { display: block; width: 100%; min-height: 64px; border: 1px solid #c8cdd8; border-radius: 6px; padding: 6px; resize: vertical; }
.card .buttons { display: flex; gap: 8px; margin-top: 8px; }
.approve { background: var(--tool); border-color: var(--tool); color: #fff; }
.reject { background: #fff; border-color: var(--err); color: var(--err); }
.send-response { background: var(--model); border-color: var(--model); color: #fff; }
.label { font-size: 12px; color: var(--muted); }
.composer { display: flex; gap: 8px; padding: 10px 14px; border-top: 1px solid var(--line); background: #fff; }
.composer textarea { flex: 1; resize: vertical; min-height: 40px; border: 1px solid #c8cdd8; border-radius: 8px; padding: 7px 9px; }
.composer textarea:disabled { background: #f4f5f8; color: var(--muted); }
.composer button { background: var(--ink); color: #fff; border-color: var(--ink); padding: 0 18px; }
#inspector { display: flex; flex-direction: column; min-height: 0; background: #fff; }
.tabs { display: flex; gap: 2px; padding: 6px 10px 0; border-bottom: 1px solid var(--line); background: var(--bg); }
.tabs button { border: 1px solid transparent; border-bottom: 0; border-radius: 8px 8px 0 0; background: none; padding: 6px 12px; color: var(--muted); }
.tabs button[aria-selected="true"] { background: #fff; border-color: var(--line); color: var(--ink); font-weight: 600; margin-bottom: -1px; }
.panel { flex: 1; min-height: 0; overflow: auto; padding: 12px 14px; }
.panel h3 { font-size: 13px; margin: 14px 0 6px; }
.panel h3:first-child { margin-top: 0; }
.panel section + section { margin-top: 16px; }
.panel h3 small { font-weight: 400; color: var(--muted); }
.note, .empty { color: var(--muted); }
table.kv { border-collapse: collapse; width: 100%; }
table.kv th { text-align: left; vertical-align: top; padding: 3px 10px 3px 0; font-family: ui-monospace, monospace; font-size: 12.5px; font-weight: 600; white-space: nowrap; }
table.kv td { padding: 3px 0; width: 100%; }
table.kv tr + tr { border-top: 1px solid #f0f1f4; }
.artifact { display: flex; gap: 8px; align-items: center; padding: 4px 0; border-bottom: 1px solid #f0f1f4; }
.artifact .name { font-family: ui-monospace, monospace; flex: 1; overflow-wrap: anywhere; }
.artifact a { font-size: 13px; }
.preview { margin-top: 10px; }
.preview pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--bg); padding: 8px; border-radius: 6px; max-height: 420px; overflow: auto; }
.preview img { max-width: 100%; border: 1px solid var(--line); border-radius: 6px; }
pre.instruction { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--bg); padding: 8px; border-radius: 6px; margin: 0; }
.decl { border-bottom: 1px solid #f0f1f4; padding: 3px 0; }
.decl .desc { color: var(--muted); }
.tl-legend { display: flex; gap: 14px; font-size: 12px; color: var(--muted); margin-bottom: 8px; }
.tl-legend span::before { content: ""; display: inline-block; width: 12px; height: 9px; border-radius: 2px; margin-right: 5px; vertical-align: middle; }
.tl-legend .l-model::before { background: var(--model); }
.tl-legend .l-tool::before { background: var(--tool); }
.tl-legend .l-wait::before { background: repeating-linear-gradient(45deg, #f6d365 0 3px, #fbe7a1 3px 6px); border: 1px dashed var(--wait); }
.tl-legend .l-error::before { background: var(--err); }
.tl-turn { border: 1px solid var(--line); border-radius: 10px; padding: 8px 10px 6px; margin-bottom: 12px; }
.tl-title { display: flex; gap: 8px; align-items: baseline; margin-bottom: 6px; white-space: nowrap; }
.tl-title .note { flex-shrink: 0; }
.tl-title .label { font-size: 13px; color: var(--ink); font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 70%; }
.tl-row { display: grid; grid-template-columns: 170px 1fr; gap: 8px; align-items: center; height: 24px; }
.tl-name { font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-family: ui-monospace, monospace; }
.tl-name.model { color: var(--model); }
.tl-track { position: relative; height: 20px; border-left: 1px solid #d5d9e2; background: repeating-linear-gradient(to right, transparent 0, transparent calc(10% - 1px), #f0f1f4 calc(10% - 1px), #f0f1f4 10%); }
.bar { position: absolute; top: 2px; bottom: 2px; min-width: 3px; border-radius: 4px; color: #fff; font-size: 11px; line-height: 16px; padding: 0 4px; overflow: hidden; white-space: nowrap; }
.bar.model { background: var(--model); }
.bar.tool { background: var(--tool); }
.bar.error { background: var(--err); }
.bar.wait { background: repeating-linear-gradient(45deg, #f6d365 0 6px, #fbe7a1 6px 12px); color: #6b4e00; border: 1px dashed var(--wait); }
.bar.open { animation: pulse .8s infinite alternate; }
.bar .done { position: absolute; left: 0; top: 0; bottom: 0; background: rgba(255,255,255,.28); }
.tl-axis { position: relative; height: 18px; margin-left: 178px; font-size: 11px; color: var(--muted); }
.tl-axis span { position: absolute; top: 2px; white-space: nowrap; }
.tl-axis .end { right: 0; z-index: 1; background: #fff; padding-left: 4px; }
.tl-break { position: absolute; top: 0; height: 16px; border-left: 2px dotted var(--wait); border-right: 2px dotted var(--wait); background: #fff8e6; color: #6b4e00; text-align: center; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.bar-label { position: absolute; top: 2px; font-size: 11px; line-height: 16px; white-space: nowrap; color: var(--muted); pointer-events: auto; }
.bar-label.model { color: var(--model); }
.bar-label.tool { color: var(--tool); }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } #conversation { border-right: 0; min-height: 60vh; } }
`;
