// The dev UI in a real browser (Debian's chromium through playwright-core), on the scripted test
// agent: open the page, chat, watch calls and answers, parallel calls overlapping on the timeline,
// approve and reject confirmations, edit a payload, answer a long-running call, state, artifacts,
// the model request. Bad input tried: HTML and script in a user message, in a tool result and in
// an artifact saved as text/html; a payload that is not JSON; a per-run context holding a secret.
// A screenshot of each step goes to test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serveDevUi, type DevUiServer } from '../src/index.js';
import { chromiumAvailable, CHROMIUM, launchBrowser, snap } from './browser.js';
import { devAgent, XSS_HTML } from './devAgent.js';

const SECRET = 'sk-dev-ui-secret-0123456789';

if (!chromiumAvailable) {
  if (process.env.CI === 'true') {
    describe('dev UI in a browser', () => {
      it('runs on CI: chromium must be installed (.ci/run installs it)', () => {
        throw new Error(`${CHROMIUM} is missing, so the browser suite cannot run; CI must not skip it.`);
      });
    });
  } else {
    console.warn(`@adkit/dev-ui: browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium, or set ADKIT_CHROMIUM).`);
  }
}

describe.runIf(chromiumAvailable)('dev UI in a browser', () => {
  let server: DevUiServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await serveDevUi({ agents: [devAgent()], port: 0, context: { apiKey: SECRET } as never });
    browser = await launchBrowser();
    page = browser.page;
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function send(text: string): Promise<void> {
    await page.locator('#message').fill(text);
    await page.locator('#message').press('Enter');
  }

  async function idle(): Promise<void> {
    await page.locator('#status', { hasText: 'idle' }).waitFor();
  }

  it('opens the page on a new session of the agent', async () => {
    await page.goto(server.url);
    await idle();
    expect(await page.locator('#app option').allTextContents()).toEqual(['assistant']);
    expect(await page.locator('#user').inputValue()).toBe('user');
    await snap(page, '01-open');
  }, 30_000);

  it('sends a message and shows the tool call, its result and the answer', async () => {
    await send('What is the weather in Paris?');
    const call = page.locator('.event .call[data-name="get_weather"]');
    await call.waitFor();
    expect(await call.locator('.json-tree').textContent()).toContain('"Paris"');
    await page.locator('.event .response[data-name="get_weather"]').waitFor();
    await page.locator('.event', { hasText: 'Done: get_weather' }).waitFor();
    await idle();
    await snap(page, '02-tool-call-and-answer');
  }, 30_000);

  it('leaves no "sending…" card when the message\'s event and the end of its run come back before the POST answers', async () => {
    // The race behind #27's flaky thread test: the event stream (SSE) is faster than the POST's response.
    await page.route('**/messages', async (route) => {
      const response = await route.fetch();
      await page.locator('#events > .event[data-event-id][data-author="user"]', { hasText: 'hello before the answer' }).waitFor();
      await idle();
      await route.fulfill({ response });
    });
    // A "sending…" card drawn once the stored event is on the page would stay there until some later
    // reload happened to clear it: count those, whatever clears them afterwards.
    await page.evaluate(() => {
      const w = window as unknown as { __lateSending: number };
      w.__lateSending = 0;
      const stored = () => Array.from(document.querySelectorAll('#events .event[data-event-id][data-author="user"]')).some((el) => el.textContent?.includes('hello before the answer'));
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes) if (node instanceof HTMLElement && node.classList.contains('sending') && stored()) w.__lateSending++;
      }).observe(document.getElementById('events')!, { childList: true, subtree: true });
    });
    try {
      await send('hello before the answer');
      await expect.poll(() => page.locator('#message').inputValue()).toBe('');
      await idle();
      expect(await page.evaluate(() => (window as unknown as { __lateSending: number }).__lateSending)).toBe(0);
      expect(await page.locator('#events .event.sending').count()).toBe(0);
      expect(await page.locator('#events > .event[data-author="user"]', { hasText: 'hello before the answer' }).count()).toBe(1);
    } finally {
      await page.unroute('**/messages');
    }
  }, 30_000);

  it('a message the server refuses leaves no "sending…" card and says why', async () => {
    expect(pageErrors).toEqual([]);
    await page.route('**/messages', (route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'the session is busy' }) }));
    try {
      await send('refused message');
      await page.locator('#problem', { hasText: 'the session is busy' }).waitFor();
      expect(await page.locator('#events .event.sending').count()).toBe(0);
      expect(await page.locator('#message').inputValue()).toBe('refused message');
      await page.locator('#problem-close').click();
      // The browser logs the refused request; it is this test's own, so later checks start clean.
      expect(pageErrors.splice(0)).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
    } finally {
      await page.unroute('**/messages');
    }
  }, 30_000);

  it('draws two parallel calls overlapping on the timeline', async () => {
    await send('compare trains and planes');
    await page.locator('.event', { hasText: 'Done: slow_lookup' }).waitFor();
    await idle();
    const bars = page.locator('.tl-turn').first().locator('.bar.tool[data-name="slow_lookup"]:not(.open)');
    await expect.poll(() => bars.count()).toBe(2);
    // Both boxes in one step, polled: the chart redraws (and is briefly unlaid) while the timeline refreshes.
    const boxes = () => bars.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    await expect.poll(async () => {
      const [a, b] = await boxes();
      // side by side (a row each) and overlapping in time
      return Boolean(a && b && a.height > 0 && a.y !== b.y && a.x < b.x + b.width && b.x < a.x + a.width);
    }, { timeout: 10_000 }).toBe(true);
    await snap(page, '03-parallel-calls-timeline');
  }, 30_000);

  it('HC-7, HC-10: approves a pending confirmation, and the tool runs (HC-3: its interim error reads as waiting)', async () => {
    await send('book a trip to Rome');
    const card = page.locator('.card.confirm[data-tool="book_trip"]');
    await card.waitFor();
    expect(await card.locator('.exact-call').textContent()).toContain('"Rome"');
    await idle();
    // The call's interim answer reads as waiting, not as the error the model is told.
    await page.locator('.event .response.asked[data-name="book_trip"]').waitFor();
    expect(await page.locator('.event .response.error').count()).toBe(0);
    await snap(page, '04-confirmation-card');
    await card.locator('button.approve').click();
    await page.locator('.event .response[data-name="book_trip"]', { hasText: 'BK-ROME' }).waitFor();
    await page.locator('.event', { hasText: 'Done: book_trip' }).waitFor();
    await idle();
    await expect.poll(() => page.locator('.card.confirm').count()).toBe(0);
    await snap(page, '05-approved-and-ran');
  }, 30_000);

  it('#31: a call that asks for no payload gets no payload box; after Approve the list follows the run down to the answer', async () => {
    await send('book a trip to Rome');
    const card = page.locator('.card.confirm[data-tool="book_trip"]').last();
    await card.waitFor();
    await idle();
    expect(await card.locator('textarea').count()).toBe(0);
    expect(await card.textContent()).not.toContain('payload');
    // Reading further up when approving: the page still goes down to what the approval brought.
    await page.locator('#events').evaluate((el) => (el.scrollTop = 0));
    await card.locator('button.approve').click();
    await page.locator('.event', { hasText: 'Done: book_trip → {"booked":"Rome","reference":"BK-ROME"}' }).last().waitFor();
    await idle();
    await expect.poll(() => page.locator('#events').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight), { timeout: 5_000 }).toBeLessThan(5);
    const answer = page.locator('.event', { hasText: 'Done: book_trip → {"booked":"Rome"' }).last();
    expect(await answer.isVisible()).toBe(true);
    const [box, list] = await Promise.all([answer.boundingBox(), page.locator('#events').boundingBox()]);
    expect(box!.y + box!.height).toBeLessThanOrEqual(list!.y + list!.height + 1);
    await snap(page, '05b-approved-scrolled-to-answer');
  }, 30_000);

  it('#31: the composer is disabled while a run goes on, and the "running" status clears when it ends', async () => {
    await send('compare trains and planes');
    await page.locator('#status', { hasText: 'running' }).waitFor();
    expect(await page.locator('#message').isDisabled()).toBe(true);
    expect(await page.locator('#send').isDisabled()).toBe(true);
    await snap(page, '05c-composer-disabled-while-running');
    await idle();
    expect(await page.locator('#message').isDisabled()).toBe(false);
    // A view fetched during the run (it said "running") must not bring the status back.
    await page.waitForTimeout(800);
    expect(await page.locator('#status').textContent()).toBe('idle');
    expect(await page.locator('#message').isDisabled()).toBe(false);
  }, 30_000);

  it('HC-9: rejects another; the model sees the rejection', async () => {
    await send('book a trip to Oslo');
    const card = page.locator('.card.confirm[data-tool="book_trip"]');
    await card.waitFor();
    await card.locator('button.reject').click();
    const rejected = page.locator('.event .response.error[data-name="book_trip"]', { hasText: 'rejected' });
    await rejected.waitFor();
    expect(await rejected.locator('.error').textContent()).toContain('rejected');
    expect(await rejected.evaluate((el) => getComputedStyle(el.querySelector('.error')!).color)).toBe('rgb(179, 38, 30)');
    await idle();
    expect(await page.locator('.response[data-name="book_trip"]', { hasText: 'BK-OSLO' }).count()).toBe(0);
    await snap(page, '06-rejected');
  }, 30_000);

  it('HC-1, HC-10: sends the edited payload with an approval; refuses a payload that is not JSON', async () => {
    await send('5 vacation days please');
    const card = page.locator('.card.confirm[data-tool="request_vacation_days"]');
    await card.waitFor();
    expect(await card.locator('.hint').textContent()).toBe('Approve 5 days?');
    expect(JSON.parse(await card.locator('textarea.payload').inputValue())).toEqual({ days_approved: 5 });
    await card.locator('textarea.payload').fill('{"days_approved": 3');
    await card.locator('button.approve').click();
    expect(await card.locator('.error').textContent()).toContain('not valid JSON');
    await card.locator('textarea.payload').fill('{"days_approved": 3}');
    await card.locator('button.approve').click();
    await page.locator('.event .response[data-name="request_vacation_days"]', { hasText: '"Approved."' }).waitFor();
    await page.locator('.event', { hasText: 'Done: request_vacation_days → {"status":"Approved.","days":3}' }).waitFor();
    await idle();
  }, 30_000);

  it('FT-6, FL-8: sends a long-running call its response from the form', async () => {
    await send('reimburse my 480 dinner');
    const card = page.locator('.card.long-running[data-tool="ask_for_approval"]');
    await card.waitFor();
    await idle();
    expect(JSON.parse(await card.locator('textarea').inputValue())).toEqual({ status: 'pending', amount: 480, ticket: 'T-42' });
    await snap(page, '07-long-running-card');
    await card.locator('textarea').fill('{"status": "approved", "ticket": "T-42"}');
    await card.locator('button.send-response').click();
    const answer = page.locator('.event[data-author="user"] .response[data-name="ask_for_approval"]');
    await answer.waitFor();
    await page.locator('.event', { hasText: 'Noted: Update from function ask_for_approval: {"status":"approved","ticket":"T-42"}' }).waitFor();
    await idle();
    await expect.poll(() => page.locator('.card.long-running').count()).toBe(0);
    await snap(page, '08-long-running-answered');
  }, 30_000);

  it('marks the pauses for approval and for a result on the timeline', async () => {
    const approval = page.locator('.bar.wait[data-wait="approval"][data-name="request_vacation_days"]:not(.open)');
    const result = page.locator('.bar.wait[data-wait="response"][data-name="ask_for_approval"]:not(.open)');
    await expect.poll(() => approval.count()).toBe(1);
    await expect.poll(() => result.count()).toBe(1);
    // The approved call ran again after its wait, on the same row.
    const row = page.locator('.tl-row', { has: approval });
    expect(await row.locator('.bar.tool').count()).toBe(2);
    await snap(page, '09-timeline-pauses');
    // #31: no label is cut off: a bar too narrow for its label shows it beside itself; the
    // durations under each chart stay on one line, in front of the drawn-short waits.
    const layout = await page.evaluate(() => {
      const bars = [...document.querySelectorAll<HTMLElement>('#timeline .bar')];
      const ends = [...document.querySelectorAll<HTMLElement>('#timeline .tl-axis .end')];
      const breaks = [...document.querySelectorAll<HTMLElement>('#timeline .tl-break')];
      return {
        clipped: bars.filter((bar) => bar.scrollWidth > bar.clientWidth + 1).map((bar) => bar.title),
        // A label beside its bar overlaps no bar and no other label of its row.
        overlapping: [...document.querySelectorAll<HTMLElement>('#timeline .tl-track')].flatMap((track) => {
          const boxes = [...track.querySelectorAll<HTMLElement>('.bar, .bar-label')].map((el) => ({ el, box: el.getBoundingClientRect() }));
          return boxes.filter(({ el, box }) => el.classList.contains('bar-label') && boxes.some((other) => other.el !== el && box.left < other.box.right - 0.5 && other.box.left < box.right - 0.5)).map(({ el }) => el.textContent);
        }),
        beside: document.querySelectorAll('#timeline .bar-label').length,
        endLines: ends.map((end) => end.getClientRects().length),
        // (those on screen: elementFromPoint sees only the viewport)
        endsCovered: ends.filter((end) => {
          const box = end.getBoundingClientRect();
          if (box.bottom > window.innerHeight || box.top < 0) return false;
          return !end.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        }).length,
        breaksWrapped: breaks.filter((b) => b.scrollHeight > b.clientHeight + 1).length,
        names: [...document.querySelectorAll<HTMLElement>('#timeline .tl-name')].filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent),
      };
    });
    expect(layout, JSON.stringify(layout)).toMatchObject({ clipped: [], overlapping: [] });
    expect(layout.beside).toBeGreaterThan(0); // the short model calls
    expect(layout.endLines.every((lines) => lines === 1)).toBe(true);
    expect(layout.endsCovered).toBe(0);
    expect(layout.breaksWrapped).toBe(0);
    expect(layout.names).toEqual([]); // request_vacation_days fits
  }, 30_000);

  it('shows HTML in a message and in a tool result as text, never as markup', async () => {
    await send(`${XSS_HTML} html please`);
    await page.locator('.event .response[data-name="echo_html"]').waitFor();
    await page.locator('.event', { hasText: 'Done: echo_html' }).waitFor();
    await idle();
    const shown = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: number }).__xss,
      images: document.querySelectorAll('#events img:not(.inline-image)').length,
      scripts: document.querySelectorAll('body script').length,
      text: document.getElementById('events')!.innerText,
    }));
    expect(shown.xss).toBeUndefined();
    expect(shown.images).toBe(0);
    expect(shown.scripts).toBe(1); // the page's own
    expect(shown.text).toContain(`${XSS_HTML} html please`);
    expect(shown.text).toContain('<img src=x onerror=\\"window.__xss=1\\">');
    await snap(page, '10-html-shown-as-text');
  }, 30_000);

  it('streams model text and a streaming tool\'s progress while the run goes on', async () => {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __live: string[] }).__live = seen;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof HTMLElement && (node.classList.contains('streaming') || node.classList.contains('progress')))
              seen.push(`${node.className} ${node.getAttribute('data-name') ?? ''} ${node.innerText}`);
      }).observe(document.getElementById('events')!, { childList: true });
    });
    await send('plan 3 days');
    await page.locator('.event', { hasText: 'Done: plan_trip' }).waitFor();
    await send('hello there');
    await page.locator('.event[data-author="assistant"]', { hasText: 'You said: hello there' }).waitFor();
    await idle();
    const live = await page.evaluate(() => (window as unknown as { __live: string[] }).__live);
    expect(live.some((entry) => entry.startsWith('event progress plan_trip'))).toBe(true);
    expect(live.some((entry) => entry.startsWith('event streaming'))).toBe(true);
    expect(await page.locator('.event.streaming, .event.progress').count()).toBe(0);
    // #31: the streaming tool (no tool callbacks) is a bar on the timeline too, ended.
    await expect.poll(() => page.locator('.bar.tool[data-name="plan_trip"]:not(.open)').count()).toBe(1);
    await snap(page, '10b-streaming-tool-on-timeline');
  }, 30_000);

  it('shows a failing tool\'s error in red', async () => {
    await send('try the flaky one');
    const failed = page.locator('.event .response.error[data-name="flaky"]');
    await failed.waitFor();
    expect(await failed.locator('.error').textContent()).toContain('the flaky service is down');
    await idle();
  }, 30_000);

  it('shows the state by scope and the artifacts: text and image viewed, HTML only downloaded', async () => {
    await send('save a note');
    await page.locator('.event', { hasText: 'Done: save_note' }).waitFor();
    await idle();
    await page.locator('[role=tab][data-tab="state"]').click();
    const scope = (name: string) => page.locator(`#state .scope[data-scope="${name}"]`);
    await scope('session').locator('tr[data-key="topic"]').waitFor();
    expect(await scope('session').locator('tr[data-key="topic"] td').textContent()).toBe('"trains are greener"');
    expect(await scope('session').locator('tr[data-key="__proto__"] td').textContent()).toContain('polluted');
    expect(await scope('user').locator('tr[data-key="user:language"] td').textContent()).toBe('"en"');
    expect(await scope('app').locator('tr[data-key="app:notes_saved"] td').textContent()).toBe('1');
    await snap(page, '11-state');

    await page.locator('[role=tab][data-tab="artifacts"]').click();
    await page.locator('#artifacts .artifact[data-name="note.txt"] button.view').click();
    await page.locator('#artifacts .preview pre', { hasText: 'trains are greener' }).waitFor();
    await page.locator('#artifacts .artifact[data-name="pixel.png"] button.view').click();
    const image = page.locator('#artifacts .preview img');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    await snap(page, '12-artifacts');
    const html = await page.evaluate(async (href) => {
      const response = await fetch(href!);
      return { type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), csp: response.headers.get('content-security-policy') };
    }, await page.locator('#artifacts .artifact[data-name="page.html"] a').getAttribute('href'));
    expect(html).toEqual({ type: 'application/octet-stream', disposition: 'attachment; filename="page.html"; filename*=UTF-8\'\'page.html', csp: "sandbox; default-src 'none'" });
  }, 30_000);

  it('shows the request the model last received, and no secret of the run context anywhere', async () => {
    await page.locator('[role=tab][data-tab="request"]').click();
    await page.locator('#request pre.instruction', { hasText: 'You help with travel.' }).waitFor();
    const declared = await page.locator('#request .decl[data-name]').evaluateAll((els) => els.map((el) => el.getAttribute('data-name')));
    expect(declared).toEqual(['get_weather', 'slow_lookup', 'book_trip', 'request_vacation_days', 'ask_for_approval', 'plan_trip', 'save_note', 'echo_html', 'flaky', 'trip_details', 'booking_helper']);
    expect(await page.locator('#request').textContent()).toContain('Long-running: ask_for_approval');
    await snap(page, '13-model-request');
    const everything = await page.evaluate(async () => {
      const texts = [document.body.innerText];
      const views = Array.from(document.querySelectorAll('#session option')).map((o) => (o as HTMLOptionElement).value);
      for (const id of views) texts.push(await (await fetch(`api/apps/assistant/users/user/sessions/${encodeURIComponent(id)}`)).text());
      return texts.join('\n');
    });
    expect(everything).not.toContain(SECRET);
    expect(pageErrors).toEqual([]);
  }, 30_000);

  it("#27: a task's conversation is a thread of its own under the call; the user's reply goes into it; done once the call is answered", async () => {
    await send('collect trip details');
    const thread = page.locator('.task-thread[data-agent="trip_details"]').last();
    await thread.locator('.event', { hasText: 'Which city?' }).waitFor();
    await idle();
    expect(await thread.locator('.meta .badge.wait').textContent()).toBe('open');
    // The thread sits right under the card with the parent's call, outside it.
    const order = () =>
      page.locator('#events > *').evaluateAll((els) =>
        els.map((el) => (el.matches('.task-thread') ? 'thread' : el.querySelector('.call[data-name="trip_details"]') ? 'call' : el.querySelector('.response[data-name="trip_details"]') ? 'answer' : 'other')),
      );
    expect((await order()).slice(-2)).toEqual(['call', 'thread']);
    await snap(page, '14-task-open');

    await send('Lisbon');
    await page.locator('#events > .event', { hasText: 'Done: trip_details' }).waitFor();
    await idle();
    const inThread = await thread.locator('.event').evaluateAll((els) =>
      els.map((el) => `${el.getAttribute('data-author')}: ${(el.querySelector('.text, .fn') as HTMLElement | null)?.textContent ?? ''}`),
    );
    expect(inThread).toEqual([
      'user: collect trip details',
      'trip_details: Which city?',
      'user: Lisbon',
      'trip_details: finish_task',
      'trip_details: finish_task',
    ]);
    expect(await thread.locator('.event.task-opening .meta .badge').textContent()).toBe('the call\u2019s request');
    expect(await thread.getAttribute('class')).toContain('done');
    expect(await thread.locator('.meta .badge.ok').textContent()).toBe('done');
    expect((await order()).slice(-4)).toEqual(['call', 'thread', 'answer', 'other']);
    await snap(page, '15-task-done');
    expect(pageErrors).toEqual([]);
  }, 30_000);

  it("#27: a task inside a task is a thread inside its caller's thread", async () => {
    await send('pick a seat');
    const outer = page.locator('#events > .task-thread[data-agent="booking_helper"]').last();
    const inner = outer.locator('.task-body > .task-thread[data-agent="seat_picker"]');
    await inner.locator('.event', { hasText: 'Which city?' }).waitFor();
    await idle();
    expect(await inner.locator('.meta .badge.wait').first().textContent()).toBe('open');
    await send('aisle');
    await page.locator('#events > .event', { hasText: 'Done: booking_helper' }).waitFor();
    await idle();
    expect(await inner.locator('.event .text').allTextContents()).toEqual(['Pick a seat', 'Which city?', 'aisle']);
    expect(await inner.getAttribute('class')).toContain('done');
    expect(await outer.getAttribute('class')).toContain('done');
    // The outer thread holds its own cards around the inner thread: the call, then the inner thread, then the answer.
    const kinds = await outer.locator(':scope > .task-body > *').evaluateAll((els) =>
      els.map((el) => (el.matches('.task-thread') ? 'thread' : el.querySelector('.call[data-name="seat_picker"]') ? 'call' : el.querySelector('.response[data-name="seat_picker"]') ? 'answer' : 'other')),
    );
    expect(kinds.slice(0, 4)).toEqual(['other', 'call', 'thread', 'answer']);
    await snap(page, '17-nested-task');
    expect(pageErrors).toEqual([]);
  }, 30_000);

  it('#30: shows a call forming as its arguments stream, then the call itself', async () => {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __forming: string[] }).__forming = seen;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof HTMLElement && node.classList.contains('forming')) seen.push(`${node.getAttribute('data-name')} ${node.innerText}`);
          for (const node of document.querySelectorAll('#events .event.forming')) seen.push(`now ${(node as HTMLElement).innerText}`);
      }).observe(document.getElementById('events')!, { childList: true, subtree: true, characterData: true });
    });
    await send('draft a note');
    await page.locator('.event', { hasText: 'Done: save_note' }).last().waitFor();
    await idle();
    const seen = await page.evaluate(() => (window as unknown as { __forming: string[] }).__forming);
    expect(seen.some((entry) => entry.startsWith('save_note') && entry.includes('writing call…'))).toBe(true);
    expect(seen.some((entry) => entry.includes('{"text":"trains are greener than planes"}'))).toBe(true);
    expect(await page.locator('.event.forming').count()).toBe(0);
    expect(await page.locator('.event .call', { hasText: 'save_note' }).count()).toBeGreaterThan(0);
  }, 30_000);
});
