// SPDX-License-Identifier: GPL-2.0
// Opens flare's SVG and HTML flame graphs in headless Chromium, clicks a frame, searches for
// a function, and reads back the page's own state: the zoom (frame widths, hidden and parent
// frames, the Reset Zoom button), the highlight (fill colors, canvas pixels) and the matched
// share. Prints one "ok - ..." / "FAIL - ..." line per check.
//   node --experimental-websocket flamegraph.mjs SVG HTML BIG_HTML ZOOM_FUNC FIND_FUNC PCT
import { launch } from './cdp.mjs';
import { pathToFileURL } from 'node:url';

const [svg, html, big, zoomFn, findFn, pctArg] = process.argv.slice(2);
const expectPct = parseFloat(pctArg);
const T = 'flamegraph-browser';
let failed = 0;
function check(what, cond, why = '') {
	if (cond) console.log(`ok - ${T}: ${what}`);
	else { failed++; console.log(`FAIL - ${T}: ${what}${why ? ': ' + why : ''}`); }
}

async function svgChecks(b) {
	await b.open(pathToFileURL(svg).href);
	const frames = await b.eval('document.getElementById("frames").children.length');
	check('svg: frames drawn', frames > 3, `${frames} frames`);
	// centre of the rect of the frame named fn, in page coordinates
	const centre = (fn) => b.eval(`(function () {
		for (const g of document.getElementById("frames").children) {
			if (!g.querySelector("title").textContent.startsWith(${JSON.stringify(fn)} + " (")) continue;
			const r = g.querySelector("rect").getBoundingClientRect();
			return [r.left + Math.min(r.width / 2, 20), r.top + r.height / 2];
		}
		return null; })()`);
	const rectOf = (fn) => b.eval(`(function () {
		for (const g of document.getElementById("frames").children) {
			if (!g.querySelector("title").textContent.startsWith(${JSON.stringify(fn)} + " (")) continue;
			const r = g.querySelector("rect");
			return { x: +r.getAttribute("x"), w: +r.getAttribute("width"), fill: r.getAttribute("fill"),
				 cls: g.getAttribute("class") || "" };
		}
		return null; })()`);
	let p = await centre('main');
	await b.move(p[0], p[1]);
	const details = await b.eval('document.getElementById("details").textContent');
	check('svg: hover shows the frame in the details line', /^Function: main \([0-9,]+ samples, [0-9.]+%\)$/.test(details), details);

	const before = await rectOf(zoomFn);
	p = await centre(zoomFn);
	await b.click(p[0], p[1]);
	const z = await rectOf(zoomFn);
	check(`svg: click zooms ${zoomFn} to the full width`, Math.abs(z.x - 10) < 0.2 && Math.abs(z.w - 1180) < 0.2 && before.w < 1100,
	      `before ${JSON.stringify(before)} after ${JSON.stringify(z)}`);
	const unzoomHidden = await b.eval('document.getElementById("unzoom").classList.contains("hide")');
	check('svg: Reset Zoom appears', unzoomHidden === false);
	const mainCls = (await rectOf('main')).cls;
	check('svg: ancestors are kept as parents', /parent/.test(mainCls), mainCls);
	const hidden = await b.eval('document.querySelectorAll("#frames > g.hide").length');
	check('svg: frames outside the zoomed one are hidden', hidden > 0, `${hidden} hidden`);
	const url = await b.eval('window.location.search');
	check('svg: zoom kept in the URL', /x=.*y=/.test(url), url);

	await b.eval(`window.prompt = function () { return ${JSON.stringify('^' + findFn + '$')}; }`);
	p = await b.eval('(function () { const r = document.getElementById("search").getBoundingClientRect(); return [r.left + 5, r.top + r.height / 2]; })()');
	await b.click(p[0], p[1]);
	const matched = await b.eval('document.getElementById("matched").textContent');
	const m = /^Matched: ([0-9.]+)%$/.exec(matched);
	check(`svg: search ^${findFn}$ prints the matched share`, m && Math.abs(parseFloat(m[1]) - expectPct) <= 0.11,
	      `${matched} (expected ${expectPct.toFixed(1)}%)`);
	const f = await rectOf(findFn);
	check(`svg: ${findFn} highlighted`, f.fill === 'rgb(230,0,230)', f.fill);
	const others = await b.eval('[...document.querySelectorAll("#frames rect")].filter(r => r.getAttribute("fill") === "rgb(230,0,230)").length');
	check('svg: only matches highlighted', others >= 1 && others < frames, `${others} of ${frames}`);

	p = await b.eval('(function () { const r = document.getElementById("unzoom").getBoundingClientRect(); return [r.left + 5, r.top + r.height / 2]; })()');
	await b.click(p[0], p[1]);
	const back = await rectOf(zoomFn);
	check('svg: Reset Zoom restores the frame', Math.abs(back.w - before.w) < 0.11 && Math.abs(back.x - before.x) < 0.11,
	      `${JSON.stringify(before)} vs ${JSON.stringify(back)}`);
	const stillHidden = await b.eval('document.querySelectorAll("#frames > g.hide").length');
	check('svg: Reset Zoom shows every frame', stillHidden === 0, `${stillHidden} hidden`);
	const kept = await rectOf(findFn);
	check('svg: the search survives the zoom reset', kept.fill === 'rgb(230,0,230)', kept.fill);
}

async function htmlChecks(b) {
	await b.open(pathToFileURL(html).href);
	const st = await b.eval('window.flare.state()');
	check('html: frames drawn on the canvas', st.frames > 3 && st.drawn > 3, JSON.stringify(st));
	let p = await b.eval(`window.flare.point(window.flare.find(${JSON.stringify(zoomFn)}))`);
	await b.move(p[0], p[1]);
	const tip = await b.eval('document.getElementById("tip").style.display + "|" + document.getElementById("tip").textContent');
	check('html: hover shows a tooltip with samples and percent', new RegExp(`^block\\|${zoomFn} \\([0-9,]+ samples, [0-9.]+%\\)$`).test(tip), tip);
	await b.click(p[0], p[1]);
	let s = await b.eval('window.flare.state()');
	check(`html: click zooms into ${zoomFn}`, s.zoomed === zoomFn, JSON.stringify(s));
	const unz = await b.eval('getComputedStyle(document.getElementById("unzoom")).visibility');
	check('html: Reset Zoom appears', unz === 'visible', unz);
	await b.eval('document.getElementById("q").focus()');
	await b.type('^' + findFn + '$');
	s = await b.eval('window.flare.state()');
	check(`html: search ^${findFn}$ gives the matched share`, s.matched !== null && Math.abs(s.matched - expectPct) < 0.06 && s.hits >= 1,
	      `${JSON.stringify(s)} expected ${expectPct}`);
	const shown = await b.eval('document.getElementById("matched").textContent');
	check('html: matched share printed', /^Matched: [0-9.]+%$/.test(shown), shown);
	p = await b.eval('(function () { const r = document.getElementById("unzoom").getBoundingClientRect(); return [r.left + 5, r.top + r.height / 2]; })()');
	await b.click(p[0], p[1]);
	s = await b.eval('window.flare.state()');
	check('html: Reset Zoom returns to the whole graph', s.zoomed === null, JSON.stringify(s));
	p = await b.eval(`window.flare.point(window.flare.find(${JSON.stringify(findFn)}))`);
	const px = await b.eval(`(function () {
		const cv = document.getElementById("fg"), r = cv.getBoundingClientRect(), d = window.devicePixelRatio || 1;
		const c = cv.getContext("2d").getImageData(Math.round((${p[0]} - 1 - r.left) * d), Math.round((${p[1]} - r.top) * d), 1, 1).data;
		return [c[0], c[1], c[2]]; })()`);
	check(`html: ${findFn} painted in the search color`, px[0] === 230 && px[1] === 0 && px[2] === 230, JSON.stringify(px));
}

async function bigChecks(b) {
	const t0 = Date.now();
	await b.open(pathToFileURL(big).href);
	const load = Date.now() - t0;
	const st = await b.eval('window.flare.state()');
	check('html big: 100k+ distinct frames loaded', st.frames > 100000, `${st.frames} frames`);
	check('html big: sub-pixel frames merged, not drawn one by one', st.drawn < st.frames / 10, `${st.drawn} boxes for ${st.frames} frames`);
	check('html big: page loads within 15 s', load < 15000, `${load} ms`);
	const t = await b.eval(`(function () {
		const f = window.flare, t0 = performance.now();
		f.zoom(f.find("mid_7"));
		const t1 = performance.now();
		f.search("leaf_1234");
		const t2 = performance.now();
		f.reset();
		const t3 = performance.now();
		return [t1 - t0, t2 - t1, t3 - t2, f.state().hits]; })()`);
	check('html big: zoom, search and reset redraw in under 500 ms each', t[0] < 500 && t[1] < 500 && t[2] < 500, JSON.stringify(t));
	check('html big: search finds the frame', t[3] >= 1, JSON.stringify(t));
}

const b = await launch(process.env.CHROMIUM || '/usr/bin/chromium');
try {
	await svgChecks(b);
	await htmlChecks(b);
	if (big) await bigChecks(b);
} catch (e) {
	failed++;
	console.log(`FAIL - ${T}: browser session: ${e.message}`);
} finally {
	await b.close();
}
process.exit(failed ? 1 : 0);
