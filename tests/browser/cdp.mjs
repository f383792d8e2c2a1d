// SPDX-License-Identifier: GPL-2.0
// cdp: a headless Chromium driven through the DevTools protocol, with node's built-ins only
// (node 20: run with --experimental-websocket). Used by tests/browser/flamegraph.mjs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function launch(binary = '/usr/bin/chromium') {
	const dir = mkdtempSync(join(tmpdir(), 'flare-chromium-'));
	const proc = spawn(binary, [
		'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync',
		'--disable-dev-shm-usage', '--window-size=1280,900', `--user-data-dir=${dir}`,
		'--remote-debugging-port=0', '--remote-allow-origins=*', 'about:blank',
	], { stdio: ['ignore', 'ignore', 'pipe'] });
	let stderr = '';
	proc.stderr.on('data', (d) => { stderr += d; });
	const portFile = join(dir, 'DevToolsActivePort');
	for (let i = 0; i < 300 && !existsSync(portFile); i++) {
		if (proc.exitCode !== null)
			throw new Error(`chromium exited ${proc.exitCode}: ${stderr.slice(-300)}`);
		await sleep(100);
	}
	if (!existsSync(portFile))
		throw new Error(`chromium did not start: ${stderr.slice(-300)}`);
	let port = '';
	for (let i = 0; i < 50 && !port; i++) {
		port = readFileSync(portFile, 'utf8').split('\n')[0];
		if (!port) await sleep(50);
	}
	let page;
	for (let i = 0; i < 100 && !page; i++) {
		try {
			const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
			page = list.find((t) => t.type === 'page');
		} catch (e) { /* not listening yet */ }
		if (!page) await sleep(100);
	}
	if (!page)
		throw new Error('no page target in chromium');
	const ws = new WebSocket(page.webSocketDebuggerUrl);
	await new Promise((res, rej) => { ws.onopen = res; ws.onerror = rej; });
	let id = 0;
	const pending = new Map(), waiters = [];
	ws.onmessage = (m) => {
		const msg = JSON.parse(m.data);
		if (msg.id && pending.has(msg.id)) {
			const { res, rej } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) rej(new Error(JSON.stringify(msg.error)));
			else res(msg.result);
		} else if (msg.method) {
			for (const w of waiters.filter((w) => w.method === msg.method)) {
				waiters.splice(waiters.indexOf(w), 1);
				w.res(msg.params);
			}
		}
	};
	const send = (method, params = {}) => new Promise((res, rej) => {
		pending.set(++id, { res, rej });
		ws.send(JSON.stringify({ id, method, params }));
	});
	const once = (method, ms = 20000) => new Promise((res, rej) => {
		const t = setTimeout(() => rej(new Error(`timeout waiting for ${method}`)), ms);
		waiters.push({ method, res: (p) => { clearTimeout(t); res(p); } });
	});
	const b = {
		send,
		async open(url) {
			await send('Page.enable');
			await send('Runtime.enable');
			const loaded = once('Page.loadEventFired');
			await send('Page.navigate', { url });
			await loaded;
		},
		async eval(expr) {
			const r = await send('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
			if (r.exceptionDetails)
				throw new Error(`page error: ${JSON.stringify(r.exceptionDetails).slice(0, 400)}`);
			return r.result.value;
		},
		async click(x, y) {
			await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
			await send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
			await send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
		},
		async move(x, y) {
			await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
		},
		async type(text) {
			await send('Input.insertText', { text });
		},
		async close() {
			try { ws.close(); } catch (e) { /* gone */ }
			proc.kill('SIGKILL');
			await new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
			rmSync(dir, { recursive: true, force: true });
		},
	};
	return b;
}
