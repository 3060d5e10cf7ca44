"""The compliance report as one static HTML page (no external resources) that people navigate.

- **Matrix**: rule families as rows, engines as columns (sticky headers), each cell `correct/judged`
  for computed cases over the same for rejection cases; every cell links to the list of its cases.
- **Verdicts**: per engine, the violations of a `must` (the headline), and beside them, never in
  them, the divergences (the spec leaves the question open) and the allowed differences.
- **Findings, one page per engine**: each violation, with the rule's spec section and summary, the
  sentence that decides it and its upstream issue (a link), expected against observed (a diff
  when they are long); below them, apart, the engine's divergences and allowed differences.
- **Divergences**: a page of its own, open questions × engines (the questions in full are in
  `spec-gaps.html` beside this page).
- **Self-check**: the reference rows apart (the reference judged against its own vectors).
- **Engines**: versions, ops, and why cases were skipped or declined.

Filters (engine, family, outcome) and the pages are a small script over the page's own data;
without the script every section shows, one after another.
"""

from __future__ import annotations

import difflib
import hashlib
import html
import json
from typing import Any

from spec_impl.obligations import QUESTIONS
from spec_impl.vectors.provenance import KINDS

from conformance.report import NOT_JUDGED, OUTCOMES, VIOLATIONS, cell_text, empty_counts, judged_families

e = html.escape
DIFF_LINES = 12  # expected and observed longer than this (pretty JSON lines) show as a diff

CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#222}
header{padding:.8em 1.5em;background:#1f3a5f;color:#fff}header h1{margin:0;font-size:20px}header p{margin:.2em 0 0;\
color:#d6e2f0}
nav{position:sticky;top:0;z-index:3;background:#f3f5f8;border-bottom:1px solid #ccd;padding:.45em 1.5em;display:flex;\
flex-wrap:wrap;gap:.3em 1em}
nav a{color:#1f3a5f;text-decoration:none;white-space:nowrap}nav a.bad::after{content:" \\25cf";color:#c00}
#filters{padding:.5em 1.5em;border-bottom:1px solid #eee;display:flex;flex-wrap:wrap;gap:.4em 1.5em;font-size:13px}
#filters fieldset{border:0;margin:0;padding:0}#filters legend{font-weight:600;float:left;margin-right:.5em}
#filters label{margin-right:.6em;white-space:nowrap}
main{padding:0 1.5em 2em}[id]{scroll-margin-top:5em}h3.family{font-size:15px;margin:1em 0 .3em;border-bottom:1px solid \
#eee}section{margin-top:1em}h2{font-size:17px;margin:.8em 0 .4em}
.matrix{max-height:78vh;overflow:auto;border:1px solid #ccc;display:inline-block;max-width:100%}
table{border-collapse:collapse}th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
.matrix th{background:#eef1f5;position:sticky;top:0;z-index:2}.matrix th:first-child,.matrix \
td:first-child{position:sticky;left:0;z-index:1;background:#fafbfc}
.matrix th:first-child{z-index:3}.matrix td{min-width:6.5em}.matrix td a{display:block;color:inherit;\
text-decoration:none}
.matrix td a:hover{outline:2px solid #1f3a5f}.matrix tfoot td{font-weight:600;background:#f3f5f8}
.cr{display:block;font-size:12px;color:#555}.none{color:#bbb}
.key{font-size:13px;color:#444;margin:.3em 0 .6em}.key b{display:inline-block;min-width:1.2em;text-align:center}
td.ok{background:#d9f2d9}td.known{background:#fff1c2}td.bad{background:#f8d0d0}td.skip{color:#999}
td.num{text-align:right}td.refonly{background:#fde7d0}
details.finding{color:#222;border:1px solid #ddd;border-left:4px solid #c00;border-radius:3px;margin:.5em 0;\
padding:.4em .7em}
.finding.known,.finding.rejected-other-rule{border-left-color:#d9a400}.finding.fixed{border-left-color:#06c}
details.cause{border:1px solid #ddd;border-left:4px solid #7a1f1f;border-radius:3px;margin:.5em 0;padding:.4em .7em}
p.cases code{margin-right:.4em}
.finding h3{font-size:14px;margin:0;font-weight:500}.finding blockquote{margin:.4em 0;padding:.2em .7em;\
border-left:3px solid #bbb;color:#333;background:#fafafa}
.pair{display:flex;gap:.8em;flex-wrap:wrap}.pair>div{flex:1 1 20em;min-width:0}
pre{background:#f7f7f7;padding:6px;white-space:pre-wrap;word-break:break-all;margin:.2em 0;max-height:24em;\
overflow:auto}
pre .add{background:#e6ffec}pre .del{background:#ffebe9}pre .hunk{color:#888}
.outcome{font-weight:700;font-size:12px}.fail,.errored{color:#a00}.fixed{color:#06c}\
.known,.rejected-other-rule{color:#8a6d00}
.pass,.rejected{color:#070}.skipped,.unsupported{color:#888}small{color:#666}
.divergence{color:#5b3fa8}.allowed{color:#2f6f8f}.finding.divergence{border-left-color:#6a4fb3}.finding.allowed{border-left-color:#4a90b0}
table.verdicts td.num{min-width:5em}td.viol{background:#f8d0d0}td.knownv{background:#fff1c2}\
td.fixedv{background:#dbe9fb}
.run{font-size:13px;font-weight:600;padding:.1em .5em;border-radius:3px;vertical-align:middle}\
.run.passed{background:#2e7d32}.run.failed{background:#c62828}td.div{background:#efe6ff}td.allw{background:#e3f1f8}
ul.cases{columns:2 28em;padding-left:1.2em}ul.cases li{break-inside:avoid}
.hidden{display:none!important}
"""

SCRIPT = """
const data = JSON.parse(document.getElementById('report-data').textContent);
const pages = [...document.querySelectorAll('[data-page]')];
function checked(name){return new Set([...document.querySelectorAll('input[name='+name+']:checked')].map(i=>i.value));}
function applyFilters(){
  const engines = checked('engine'), outcomes = checked('outcome');
  const family = document.getElementById('family-filter').value.trim().toLowerCase();
  document.querySelectorAll('[data-engine],[data-family],[data-outcome]').forEach(el=>{
    const d = el.dataset;
    el.classList.toggle('hidden', (d.engine !== undefined && !engines.has(d.engine))
      || (family !== '' && d.family !== undefined && !d.family.toLowerCase().includes(family))
      || (d.outcome !== undefined && !outcomes.has(d.outcome)));});
}
function esc(t){const d=document.createElement('div');d.textContent=t;return d.innerHTML;}
function showCell(engine, family){
  const view = document.getElementById('cell');
  const byOutcome = (data.outcomes[engine]||{})[family]||{};
  let out = '<h2>'+esc(engine)+' \\u00d7 '+esc(family)+'</h2><p><a href="#matrix">back to the matrix</a> \\u00b7 <a \
href="#findings-'+esc(data.pages[engine])+'">all findings of '+esc(engine)+'</a></p>';
  for (const outcome of data.order){
    const ids = byOutcome[outcome]; if(!ids) continue;
    out += '<div data-outcome="'+outcome+'"><h3 class="'+outcome+'">'+outcome+' ('+ids.length+')</h3><ul \
class="cases">';
    for (const id of ids){
      const anchor = (data.anchors[engine]||{})[id];
      out += '<li><code>'+(anchor?'<a href="#'+anchor+'">'+esc(id)+'</a>':esc(id))+'</code></li>';}
    out += '</ul></div>';}
  view.innerHTML = out + (Object.keys(byOutcome).length ? '' : '<p>no cases</p>');
}
function route(){
  const hash = decodeURIComponent(location.hash.slice(1));
  let page = 'main';
  if (hash.startsWith('cell/')){const [,engine,family]=hash.split('/');showCell(engine,family);page='cell';}
  else if (hash.startsWith('findings-') || hash === 'divergences') page = hash;
  else if (hash.startsWith('k-')){const el=document.getElementById(hash);if(el) \
page=el.closest('[data-page]').dataset.page;}
  pages.forEach(p=>p.classList.toggle('hidden', p.dataset.page !== page));
  applyFilters();
  if (hash.startsWith('k-')){const el=document.getElementById(hash);if(el){el.open=true;el.scrollIntoView();}}
  else setTimeout(()=>window.scrollTo(0,0));
}
document.querySelectorAll('#filters input').forEach(i=>i.addEventListener('input', applyFilters));
window.addEventListener('hashchange', route);
route();
if (location.search.includes('selftest')){  // layout facts for the page's own test (tests/test_report_page.py)
  const matrix = document.querySelector('.matrix'), th = document.querySelector('.matrix th');
  const shown = pages.filter(p=>!p.classList.contains('hidden')).map(p=>p.dataset.page);
  document.body.dataset.selftest = JSON.stringify({viewport: innerWidth, page: document.documentElement.scrollWidth,
    matrix: matrix ? matrix.scrollWidth : 0, matrixBox: matrix ? matrix.clientWidth : 0, sticky: th ? \
getComputedStyle(th).position : '',
    shown: shown, cellItems: document.querySelectorAll('#cell li').length, open: \
[...document.querySelectorAll('details[open]')].map(d=>d.id)});
}
"""


KEY = (
    "Each cell: <b>correct/judged</b> computed cases (an output expected), below it in small the rejection cases "
    "(the spec forbids the input); – nothing judged. Click a cell for its cases, an engine for its findings. <b "
    "class='fail'>F</b> fail (wrong answer, or a forbidden input accepted) · <b class='errored'>E</b> errored "
    "(raised where the spec defines a result, crashed, hung or broke the protocol) · <b class='known'>K</b> "
    "known discrepancy, reproducing its pinned observation · <b class='known'>R</b> rejected under another rule "
    "· <b class='divergence'>D</b> divergence (the spec is silent or ambiguous and the engine reads it "
    "otherwise: not a failure) · <b class='allowed'>A</b> allowed difference (the spec permits the answer) · <b "
    "class='fixed'>X</b> fixed: a recorded or expected violation that now passes (remove it from the engine's "
    "ledger file, vectors/known/engines/&lt;engine&gt;.json, or from your <code>--expectations</code> file) · <b "
    "class='unsupported'>U</b> declined by the "
    "engine. <span style='background:#d9f2d9'>&nbsp;all correct&nbsp;</span> <span "
    "style='background:#fff1c2'>&nbsp;expected violations only&nbsp;</span> <span "
    "style='background:#f8d0d0'>&nbsp;unexpected violations&nbsp;</span>"
)


def anchor(engine: str, case_id: str) -> str:
    """The id of a case's finding on its engine's page (letters, digits and dashes only)."""
    return "k-" + hashlib.sha1(f"{engine}\0{case_id}".encode()).hexdigest()[:12]


def page_id(engine: str) -> str:
    return "".join(c if c.isalnum() or c == "-" else "_" for c in engine)


def _css_class(counts: dict[str, Any] | None, kind: str | None = None) -> str:
    if not counts:
        return "skip"
    c = counts if kind is None else counts[kind]
    if sum(c[o] for o in OUTCOMES if o not in NOT_JUDGED) == 0:
        return "skip"
    if c["fail"] or c["errored"]:
        return "bad"  # divergences, allowed differences and fixed cases never make a cell bad
    return "known" if c["known"] or c["rejected-other-rule"] else "ok"


def _cell_text(counts: dict[str, Any] | None) -> str:
    """Computed cases, and below them rejection cases; a dash where nothing was judged."""
    computed, rejection = (cell_text(counts, kind) for kind in ("computed", "rejection"))
    if _css_class(counts) == "skip":
        return "<span class='none'>–</span>"
    parts = [e(computed) if computed not in ("-", "skip") else "<span class='none'>–</span>"]
    if rejection not in ("-", "skip"):
        parts.append(f"<span class='cr'>{e(rejection)}</span>")
    return "".join(parts)


def _cell(engine: str, family: str | None, counts: dict[str, Any] | None) -> str:
    text = _cell_text(counts)
    if family is None:
        return f"<td class='{_css_class(counts)}' data-engine='{e(engine)}'>{text}</td>"
    return (
        f"<td class='{_css_class(counts)}' data-engine='{e(engine)}'><a href='#cell/{e(engine)}/{e(family)}' "
        f"title='{e(engine)} on {e(family)}: the list of its cases'>{text}</a></td>"
    )


def _matrix(doc: dict, engines: list[str], title: str, note: str) -> list[str]:
    live = [n for n in engines if doc["engines"][n]["available"]]
    out = [
        f"<h2>{e(title)}</h2><p class='key'>{note}</p><div class='matrix'><table><thead><tr><th>family</th>"
        + "".join(f"<th data-engine='{e(n)}'><a href='#findings-{page_id(n)}'>{e(n)}</a></th>" for n in live)
        + "</tr></thead><tbody>"
    ]
    judged = judged_families(doc, live)
    for family in judged:
        cells = "".join(_cell(n, family, doc["cells"][n].get(family)) for n in live)
        out.append(f"<tr data-family='{e(family)}'><td>{e(family)}</td>{cells}</tr>")
    totals = "".join(_cell(n, None, doc["totals"][n]) for n in live)
    out.append(f"</tbody><tfoot><tr><td>total</td>{totals}</tr></tfoot></table></div>")
    if live and (unjudged := [f for f in doc["families"] if f not in judged]):
        out.append(
            f"<p class='key'>Not judged ({len(unjudged)} families: no case these engines offer): "
            f"{e(', '.join(unjudged))}</p>"
        )
    for name in engines:
        info = doc["engines"][name]
        if not info["available"]:
            what = "broken" if info["broken"] else "unavailable"
            out.append(
                f"<p class='bad' data-engine='{e(name)}'><b>{e(name)}</b>: {what}: "
                f"{e(info['unavailable-reason'] or '')}</p>"
            )
    return out


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)


def _expected_observed(c: dict) -> str:
    expected = c["expected"].get("output", c["expected"])
    want, got = _pretty(expected), _pretty(c["observed"])
    if max(want.count("\n"), got.count("\n")) < DIFF_LINES:
        return (
            f"<div class='pair'><div><b>expected</b><pre>{e(_pretty(c['expected']))}</pre></div>"
            f"<div><b>observed</b><pre>{e(got)}</pre></div></div>"
        )
    lines = []
    for line in difflib.unified_diff(want.splitlines(), got.splitlines(), "expected", "observed", lineterm="", n=2):
        css = (
            "hunk"
            if line.startswith("@@")
            else "add"
            if line.startswith("+")
            else "del"
            if line.startswith("-")
            else ""
        )
        lines.append(f"<span class='{css}'>{e(line)}</span>" if css else e(line))
    return f"<b>expected → observed</b> <small>(unified diff of the JSON)</small><pre>{chr(10).join(lines)}</pre>"


VIOLATION_OUTCOMES = VIOLATIONS


def _finding(c: dict) -> str:
    o = c.get("obligation") or {}
    if c["outcome"] == "divergence":
        q = c.get("question") or o.get("question")
        quote = (
            f"Open question {q}: {QUESTIONS[q].asks} (spec-gaps.html#{q})"
            if q in QUESTIONS
            else c.get("rule-summary") or ""
        )
    elif c["outcome"] == "allowed":
        quote = f"Allowed ({o.get('allowance')}): “{o.get('quote', '')}”"
    else:
        quote = c.get("decided-by") or c.get("rule-summary") or ""
    upstream = f" · upstream: <a href='{e(c['upstream'])}'>{e(c['upstream'])}</a>" if c.get("upstream") else ""
    pinned = f"<b>pinned observation</b><pre>{e(_pretty(c['pinned']))}</pre>" if c.get("pinned") is not None else ""
    return (
        f"<details class='finding {e(c['outcome'])}' id='{anchor(c['engine'], c['id'])}' "
        f"data-family='{e(c['family'])}' "
        f"data-outcome='{e(c['outcome'])}'><summary><span class='outcome "
        f"{e(c['outcome'])}'>{e(c['outcome'].upper())}</span> "
        f"<code>{e(c['id'])}</code> <small>{e(c['family'])}, {e(c['kind'])}</small> {e(c['description'])}</summary>"
        f"<p><small>rule <code>{e(c['rule'])}</code> · spec: {e(c['section'])}{upstream}</small></p>"
        + (f"<blockquote>{e(quote)}</blockquote>" if quote else "")
        + "<b>input</b> <small>(op "
        f"{e(c['op'])})</small><pre>{e(_pretty(c['input']))}</pre>{_expected_observed(c)}{pinned}"
        + (f"<p><small>{e(c['message'])}</small></p>" if c["message"] else "")
        + "</details>"
    )


def _cause_cards(name: str, found: list[dict]) -> list[str]:
    """One card per finding (a cause): its kind, rules, sentence, smallest case and every case."""
    if not found:
        return []
    out = [f"<h2>Findings ({len(found)}: one per cause)</h2>"]
    for f in found:
        links = " ".join(f"<a href='#{anchor(name, c)}'><code>{e(c)}</code></a>" for c in f["cases"])
        upstream = f" · upstream: <a href='{e(f['upstream'])}'>{e(f['upstream'])}</a>" if f.get("upstream") else ""
        out.append(
            f"<details class='cause' id='finding-{e(f['id'])}'><summary><b>{e(f['kind'])}</b> under "
            f"<code>{e(', '.join(f['rules']))}</code>: {len(f['cases'])} case{'s' if len(f['cases']) != 1 else ''}"
            f"</summary><p><small>spec: {e(f['section'])}{upstream} · report: <code>findings/{e(name)}/"
            f"{e(f['id'])}.md</code> · smallest case: <a href='#{anchor(name, f['smallest'])}'><code>"
            f"{e(f['smallest'])}</code></a></small></p>"
            + (f"<blockquote>{e(f['quote'])}</blockquote>" if f.get("quote") else "")
            + (f"<p>{e(f['explanation'])}</p>" if f.get("explanation") else "")
            + f"<p class='cases'><small>{links}</small></p></details>"
        )
    return out


def _findings_page(name: str, cases: list[dict], found: list[dict] | None = None) -> list[str]:
    counts = {o: sum(1 for c in cases if c["outcome"] == o) for o in OUTCOMES}
    summary = ", ".join(f"{n} {o}" for o, n in counts.items() if n and o in VIOLATION_OUTCOMES) or "none"
    out = [
        f"<section data-page='findings-{page_id(name)}' id='findings-{page_id(name)}'><h2>Findings of "
        f"{e(name)}: {summary}</h2>",
        "<p><small>Violations: cases where a <i>must</i> of the spec is broken (the quoted sentence decides each). "
        "Divergences and allowed differences follow, apart. <a href='#matrix'>back to the matrix</a></small></p>",
    ]
    out += _cause_cards(name, found or [])
    for title, outcomes, note in (
        ("Unexpected violations", ("fail", "errored"), "Named by no ledger entry or expectation: they fail the run."),
        (
            "Expected violations",
            ("known",),
            "Named by the engine's ledger file or expectations file (xfail): violations all the same.",
        ),
        (
            "Fixed",
            ("fixed",),
            "Recorded or expected violations the engine now passes: the entry can go.",
        ),
        (
            "Rejected under another rule",
            ("rejected-other-rule",),
            "A correct rejection, credited, though under another rule than the case's.",
        ),
        (
            "Divergences",
            ("divergence",),
            "The spec is silent or ambiguous; the engine reads the question otherwise than the reference. "
            "Not a failure.",
        ),
        (
            "Allowed differences",
            ("allowed",),
            "The answer differs from the reference's, inside the set the spec permits. Not a failure.",
        ),
    ):
        found_all = [c for c in cases if c["outcome"] in outcomes]
        if title != "Unexpected violations" and not found_all:
            continue
        out.append(
            f"<h2 class='{e(outcomes[0])}'>{title} ({len(found_all)})</h2>"
            + (f"<p><small>{note}</small></p>" if note else "")
        )
        families: dict[str, list[dict]] = {}
        for c in found_all:
            families.setdefault(c["family"], []).append(c)
        for family, found in families.items():
            out.append(f"<div data-family='{e(family)}'><h3 class='family'>{e(family)} ({len(found)})</h3>")
            out += [_finding(c) for c in found] + ["</div>"]
        if not found_all:
            out.append("<p>none</p>")
    return out + ["</section>"]


def _verdicts(doc: dict, engines: list[str]) -> list[str]:
    """Per engine: violations of a must, and beside them divergences and allowed differences."""
    v = doc.get("verdicts", {})
    marks = {
        "unexpected": " viol",
        "expected": " knownv",
        "fixed": " fixedv",
        "divergences": " div",
        "allowed": " allw",
    }
    rows = "".join(
        f"<tr data-engine='{e(n)}'><td><a href='#findings-{page_id(n)}'>{e(n)}</a></td>"
        + "".join(f"<td class='num{marks.get(k, '') if v[n][k] else ''}'>{v[n][k]}</td>" for k in _VERDICT_KEYS)
        + "</tr>"
        for n in engines
        if n in v and doc["engines"][n]["available"]
    )
    return [
        "<h2>Verdicts</h2><p class='key'><b>Violations</b>: a <i>must</i> of the spec broken (a wrong "
        "answer, a forbidden "
        "input accepted, an error where the spec defines a result, or a recorded violation), each quoting "
        "its sentence. "
        "<b class='divergence'>Divergences</b>: the spec is silent or ambiguous and the engine reads it "
        "otherwise than the "
        "reference (<a href='#divergences'>by question</a>, and <a href='spec-gaps.html'>the spec gaps</a>). "
        "<b class='allowed'>Allowed</b>: the engine's answer differs from the reference's inside what the "
        "spec permits. "
        "Only violations count as findings.</p>",
        "<table class='verdicts'><tr><th>engine</th><th>violations</th><th>unexpected</th><th>expected</th>"
        f"<th>fixed</th><th>divergences</th><th>allowed differences</th></tr>{rows}</table>",
    ]


_VERDICT_KEYS = ("violations", "unexpected", "expected", "fixed", "divergences", "allowed")


def _run_badge(doc: dict) -> str:
    """The run's outcome, green or red, as the exit code gave it."""
    outcome = (doc.get("run") or {}).get("outcome")
    if outcome is None:
        return ""
    return f"<span class='run {e(outcome)}'>run {e(outcome)}</span>"


def _baseline(doc: dict) -> list[str]:
    """The comparison with `--baseline`: the counts, then the regressed, fixed and new cases."""
    compared = doc.get("baseline")
    if not compared:
        return []
    counts = ", ".join(f"{n} {k}" for k, n in compared["counts"].items())
    out = [f"<h2 id='baseline'>Against the baseline</h2><p class='key'>{e(compared['path'])}: {e(counts)}</p>"]
    for kind in ("regressed", "fixed", "new", "removed"):
        listed = [c for c in compared["changes"] if c["change"] == kind]
        if listed:
            items = "".join(
                f"<li data-engine='{e(c['engine'])}'>{e(c['engine'])} <code>{e(c['case'])}</code>: "
                f"{e(c['before'] or '-')} → {e(c['after'] or '-')}</li>"
                for c in listed
            )
            out.append(
                f"<details class='changes {kind}' open><summary>{kind} ({len(listed)})</summary>"
                f"<ul>{items}</ul></details>"
            )
    return out


def _divergences_page(doc: dict, engines: list[str]) -> list[str]:
    """Open questions × engines: how many cases each engine reads otherwise than the reference."""
    counts: dict[str, dict[str, int]] = {}
    for c in doc["cases"]:
        if c["outcome"] == "divergence" and c["engine"] in engines:
            q = c.get("question") or "(unnamed)"
            counts.setdefault(q, {}).setdefault(c["engine"], 0)
            counts[q][c["engine"]] += 1
    live = [n for n in engines if doc["engines"][n]["available"]]
    out = [
        "<section data-page='divergences' id='divergences' class='hidden'><h2>Divergences by open question</h2>",
        "<p><small>Cases per engine where the spec leaves the question open and the engine reads it otherwise than the "
        "reference. Each question, its sentences, the readings and a proposed clarification: <a href='spec-gaps.html'>"
        "spec-gaps.html</a>. <a href='#matrix'>back to the matrix</a></small></p>",
        "<div class='matrix'><table><thead><tr><th>question</th>"
        + "".join(f"<th data-engine='{e(n)}'>{e(n)}</th>" for n in live)
        + "</tr></thead><tbody>",
    ]
    for q in sorted(counts):
        cells = "".join(
            f"<td class='num{' div' if counts[q].get(n) else ''}' data-engine='{e(n)}'>{counts[q].get(n, '')}</td>"
            for n in live
        )
        name = f"<a href='spec-gaps.html#{e(q)}'><code>{e(q)}</code></a>" if q in QUESTIONS else f"<code>{e(q)}</code>"
        out.append(f"<tr><td>{name}</td>{cells}</tr>")
    out.append("</tbody></table></div>" + ("" if counts else "<p>none</p>") + "</section>")
    return out


def _provenance(doc: dict) -> list[str]:
    out = [
        "<h2 id='provenance'>Provenance of the expectations</h2><p><small>How each family's expected results "
        "were obtained: "
        "the spec's own examples, values hand-typed from a cited source, tables a real engine wrote, results "
        "real engines "
        "confirm (<code>spec_impl/vectors/provenance.py</code>), or the reference alone.</small></p>",
        "<table><tr><th>family</th>" + "".join(f"<th>{e(k)}</th>" for k in KINDS) + "<th>total</th></tr>",
    ]
    for family, p in doc["provenance"].items():
        cells = "".join(
            f"<td class='num{' refonly' if k == 'reference-only' and p.get(k) else ''}'>{p.get(k, 0)}</td>"
            for k in KINDS
        )
        out.append(
            f"<tr data-family='{e(family)}'><td>{e(family)}</td>{cells}<td class='num'>{sum(p.values())}</td></tr>"
        )
    totals = "".join(f"<td class='num'>{sum(p.get(k, 0) for p in doc['provenance'].values())}</td>" for k in KINDS)
    out.append(
        f"<tr><th>total</th>{totals}<td "
        f"class='num'>{sum(sum(p.values()) for p in doc['provenance'].values())}</td></tr></table>"
    )
    return out


def _coverage_row(name: str, c: dict) -> str:
    share = "n/a" if c["checked-share"] is None else f"{c['checked-share']:.0%}"
    nums = "".join(f"<td class='num'>{c[k]}</td>" for k in COVERAGE_COLUMNS)
    return f"<tr><td>{e(name)}</td>{nums}<td class='num'>{share}</td></tr>"


COVERAGE_COLUMNS = ("statements", "checked", "partial", "uncovered", "untestable", "superseded")


def _spec_coverage(doc: dict) -> list[str]:
    """The requirement index's figures: how much of each spec text the vectors check, per section."""
    coverage = doc.get("spec-coverage") or {}
    head = "<tr><th>{}</th>" + "".join(f"<th>{k}</th>" for k in COVERAGE_COLUMNS) + "<th>checked share</th></tr>"
    out = [
        "<h2 id='spec-coverage'>Spec coverage</h2><p><small>The normative statements of each spec text "
        "(<code>vectors/requirements.json</code>, <code>REQUIREMENTS.md</code>): checked by the vectors of their "
        "rules, in part, not yet (testable, no check), or untestable (catalog protocol, concurrency, a "
        "recommendation with no observable result). The share is checked over testable.</small></p>",
        "<table>" + head.format("spec text"),
    ]
    out += [_coverage_row(name, c["total"]) for name, c in coverage.items()]
    out.append("</table>")
    for name, c in coverage.items():
        rows = "".join(_coverage_row(section, counts) for section, counts in c["sections"].items())
        out.append(
            f"<details><summary>{e(name)}: per section</summary><table>{head.format('section')}{rows}</table></details>"
        )
    return out if coverage else []


def _reasons(reasons: dict[str, int]) -> str:
    return "<br>".join(f"{n}× {e(r)}" for r, n in sorted(reasons.items(), key=lambda kv: -kv[1])) or "-"


def _engines(doc: dict) -> list[str]:
    out = [
        "<h2 id='engines'>Engines</h2><table><tr><th>engine</th><th>version</th><th>revision</th><th>protocol</th>"
        "<th>wall time (s)</th><th>restarts</th><th>skipped (why)</th><th>declined by the engine (its "
        "reasons)</th></tr>"
    ]
    for name, info in doc["engines"].items():
        out.append(
            "<tr "
            f"data-engine='{e(name)}'><td>{e(name)}<br><small>{e(', '.join(info['capabilities']) or '-')}</small></td>"
            f"<td>{e(info['version'] or '-')}</td><td>{e(info['revision'] or '-')}</td>"
            f"<td>{info['protocol'] or '-'}</td>"
            f"<td class='num'>{info['seconds']}</td><td class='num'>{info['restarts']}</td>"
            f"<td><small>{_reasons(info.get('skipped', {}))}</small></td>"
            f"<td><small>{_reasons(info['unsupported'])}</small></td></tr>"
        )
    out.append("</table>")
    if doc["random-values"]:
        out.append(
            "<h2>Random values</h2><table><tr><th>engine</th><th>op</th><th>outcome</th><th>cases judged</th>"
            "<th>known disagreements</th><th>note</th></tr>"
        )
        for r in doc["random-values"]:
            out.append(
                f"<tr data-engine='{e(r['engine'])}'><td>{e(r['engine'])}</td><td>{e(r['op'])}</td>"
                f"<td class='{e(r['outcome'])}'>{e(r['outcome'])}</td><td class='num'>{r.get('judged', 0)}</td>"
                f"<td class='num'>{r['known-disagreements']}</td>"
                f"<td><small>{e(r.get('message') or '')}</small></td></tr>"
            )
        out.append("</table>")
    return out


def _filters(engines: list[str]) -> str:
    boxes = "".join(
        f"<label><input type='checkbox' name='engine' value='{e(n)}' checked> {e(n)}</label>" for n in engines
    )
    outcomes = "".join(
        f"<label><input type='checkbox' name='outcome' value='{o}' checked> <span class='{o}'>{o}</span></label>"
        for o in OUTCOMES
    )
    return (
        f"<div id='filters'><fieldset><legend>engines</legend>{boxes}</fieldset>"
        "<fieldset><legend>family</legend><input id='family-filter' type='search' placeholder='e.g. bucket' "
        "size='14'></fieldset>"
        f"<fieldset><legend>outcomes</legend>{outcomes}</fieldset></div>"
    )


def to_html(doc: dict) -> str:
    """The whole page for a report document (`report.Recorder.build`)."""
    engines = [n for n, info in doc["engines"].items() if not info.get("self-check")]
    self_check = [n for n, info in doc["engines"].items() if info.get("self-check")]
    cases_by_engine: dict[str, list[dict]] = {n: [] for n in doc["engines"]}
    for c in doc["cases"]:
        cases_by_engine.setdefault(c["engine"], []).append(c)
    judged = sum(sum(t[o] for o in OUTCOMES if o not in NOT_JUDGED) for n, t in doc["totals"].items() if n in engines)
    data = {
        "order": list(OUTCOMES),
        "pages": {n: page_id(n) for n in doc["engines"]},
        "outcomes": doc.get("outcomes", {}),
        "anchors": {n: {c["id"]: anchor(n, c["id"]) for c in cs} for n, cs in cases_by_engine.items()},
    }
    violations = {n: [c for c in cs if c["outcome"] in VIOLATION_OUTCOMES] for n, cs in cases_by_engine.items()}
    nav = (
        ["<a href='#matrix'>Matrix</a>"]
        + [
            f"<a href='#findings-{page_id(n)}' "
            f"class='{_css_class(doc['totals'].get(n, empty_counts()))}'>{e(n)} ({len(violations[n])})</a>"
            for n in engines + self_check
        ]
        + [
            "<a href='#divergences'>Divergences</a>",
            "<a href='spec-gaps.html'>Spec gaps</a>",
            "<a href='#self-check'>Self-check</a>",
            "<a href='#provenance'>Provenance</a>",
            "<a href='#spec-coverage'>Spec coverage</a>",
            "<a href='#engines'>Engines</a>",
        ]
    )
    verdicts = doc.get("verdicts", {})
    total = {k: sum(verdicts[n][k] for n in engines if n in verdicts) for k in _VERDICT_KEYS}
    causes = sum(1 for f in doc.get("findings", []) if f["engine"] in engines)
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
        "content='width=device-width'>",
        f"<title>Iceberg compliance report</title><style>{CSS}</style></head><body>",
        f"<header><h1>Iceberg compliance report {_run_badge(doc)}</h1><p>{len(engines)} "
        f"engine{'s' if len(engines) != 1 else ''}, {judged:,} cases judged: "
        f"<b>{total['violations']:,} violations</b> of a must of the spec ({total['unexpected']:,} unexpected, "
        f"{total['expected']:,} expected) from {causes:,} findings (one per cause), {total['fixed']:,} fixed; "
        f"beside them, {total['divergences']:,} "
        f"divergences where the spec is silent or ambiguous and {total['allowed']:,} allowed differences</p>"
        "</header>",
        f"<nav>{' '.join(nav)}</nav>",
        _filters(list(doc["engines"])),
        "<main>",
        "<section data-page='main' id='matrix'>",
    ]
    out += _verdicts(doc, engines) + _baseline(doc)
    out += _matrix(doc, engines, "Engines × rule families", KEY)
    out.append("<div id='self-check'></div>")
    out += _matrix(
        doc,
        self_check,
        "Self-check: the reference against its own vectors",
        "<code>reference</code> follows the adopted v3 text, <code>reference-seed</code> the 2024 seed text; "
        "anything but full marks here is a bug of the suite.",
    )
    out += (
        _provenance(doc)
        + _spec_coverage(doc)
        + _engines(doc)
        + ["</section>", "<section data-page='cell' id='cell' class='hidden'></section>"]
    )
    out += _divergences_page(doc, engines)
    for name in engines + self_check:
        out += _findings_page(name, cases_by_engine[name], [f for f in doc.get("findings", []) if f["engine"] == name])
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    out += [
        "</main>",
        f"<script type='application/json' id='report-data'>{payload}</script>",
        f"<script>{SCRIPT}</script></body></html>\n",
    ]
    return "\n".join(out)
