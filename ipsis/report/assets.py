"""The inline CSS and JavaScript of the HTML report (no network, no external assets).

The script only filters and navigates; the page is complete without it. Its SHA-256 goes into
the page's Content-Security-Policy, so that no other inline script can run even if some text
escaped escaping.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
:root{--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--odd:#8250df;--mute:#57606a;--bg:#fff;--fg:#1f2328;
--line:#d0d7de;--hit:#fff8c5;--hitb:#d4a72c;--soft:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:62rem;margin:0 auto;padding:0 1rem 4rem}
header.bar{position:sticky;top:0;z-index:2;background:var(--soft);border-bottom:1px solid var(--line);
padding:.5rem 1rem}
header.bar h1{font-size:1.05rem;margin:0 0 .25rem}
.counts,.meta,.filters{display:flex;flex-wrap:wrap;gap:.35rem .75rem;align-items:center;font-size:.85rem}
.meta{color:var(--mute)}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}
.badge{display:inline-block;border-radius:1em;padding:0 .6em;font-size:.8rem;font-weight:600;color:#fff;
background:var(--mute);white-space:nowrap}
.st-located{background:var(--ok)}.st-ambiguous,.st-too_short{background:var(--warn)}
.st-not_found,.st-unknown_source{background:var(--bad)}.st-invalid_record{background:var(--odd)}
.st-empty_quote{background:var(--mute)}
.kind{background:#eaeef2;color:var(--fg)}
table.sources{border-collapse:collapse;font-size:.8rem;margin:.25rem 0}
table.sources td,table.sources th{border:1px solid var(--line);padding:.1rem .4rem;text-align:left;vertical-align:top}
td.hash{word-break:break-all}
.banner{background:#ffebe9;border:1px solid var(--bad);padding:.5rem .75rem;border-radius:6px;margin:1rem 0}
section.answer{border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:1rem 0;white-space:pre-wrap;
overflow-wrap:anywhere}
a.marker{font-weight:700;text-decoration:none;border-radius:4px;padding:0 .15em;color:#fff}
a.claim{background:none!important;color:inherit;text-decoration:none;border-bottom:3px solid var(--mute)}
a.claim.st-located{border-bottom-color:var(--ok)}a.claim.st-ambiguous,a.claim.st-too_short{border-bottom-color:var(--warn)}
a.claim.st-not_found,a.claim.st-unknown_source{border-bottom-color:var(--bad)}
b.st-cited{background:#eaeef2;color:var(--fg);font-weight:700;border-radius:4px;padding:0 .15em}
span.finding-span{text-decoration:underline dotted var(--bad);text-decoration-thickness:2px}
u.uncited{text-decoration:underline wavy var(--bad);text-underline-offset:3px}
ol.findings{padding-left:1.25rem}
article.cit{border:1px solid var(--line);border-left:6px solid var(--mute);border-radius:6px;padding:.6rem .9rem;
margin:1rem 0;break-inside:avoid;
scroll-margin-top:10rem}
article.cit:focus{outline:3px solid #0969da;outline-offset:2px}
article.cit.s-located{border-left-color:var(--ok)}article.cit.s-ambiguous,article.cit.s-too_short{border-left-color:var(--warn)}
article.cit.s-not_found,article.cit.s-unknown_source{border-left-color:var(--bad)}
article.cit.s-invalid_record{border-left-color:var(--odd)}
article.cit h3{font-size:1rem;margin:0;display:flex;flex-wrap:wrap;gap:.4rem;align-items:baseline}
.where{color:var(--mute);font-size:.85rem}
.msg{margin:.25rem 0}
blockquote.quote{margin:.4rem 0;padding:.3rem .7rem;border-left:3px solid var(--line);background:var(--soft);
white-space:pre-wrap;overflow-wrap:anywhere}
.ctx{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.82rem;white-space:pre-wrap;
overflow-wrap:anywhere;background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:.4rem .6rem;
max-height:24rem;overflow:auto;margin:.3rem 0}
mark.hit{background:var(--hit);outline:1px solid var(--hitb);color:inherit}
mark.near{background:#ffebe9;outline:1px solid var(--bad);color:inherit}
figure.scan{margin:.5em 0}figure.scan .scanwrap{position:relative;display:inline-block;max-width:100%}
figure.scan img{display:block;max-width:100%;height:auto;border:1px solid #d0d7de}
.ocrbox{position:absolute;outline:2px solid var(--hitb);background:rgba(255,213,79,.25)}
.ocrbox.low{outline:2px dashed var(--bad)}figure.scan figcaption{font-size:.85em;color:#57606a}
del.revoked{color:var(--bad)}
span.note{color:var(--mute);font-style:italic}
.diff ins{background:#dafbe1;text-decoration:underline 2px;text-underline-offset:2px}
.diff del{background:#ffebe9;text-decoration:line-through 2px}
.diff .hunk{display:inline-block;margin:.15rem 0;padding:0 .3rem;border:1px dashed var(--line);border-radius:3px}
.diff .gap{color:var(--mute)}
ul.flags{list-style:none;padding:0;margin:.3rem 0;display:flex;flex-direction:column;gap:.2rem}
.flag{border:1px solid var(--bad);color:var(--bad);border-radius:1em;padding:0 .5em;font-size:.78rem;cursor:help}
.cue{border:1px solid var(--mute);border-radius:1em;padding:0 .5em;font-size:.78rem;cursor:help}
[title]{cursor:help}a[title]{cursor:pointer}
ol.cands{padding-left:1.5rem}ol.cands li{margin:.3rem 0}
ol.cands .line{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.82rem;
overflow-wrap:anywhere;background:var(--soft);padding:.1rem .4rem;border-radius:3px}
details.sec summary{font-size:.8rem;color:var(--mute);cursor:pointer}
mark.hit-ctx{background:var(--hit);outline:1px solid var(--hitb);color:inherit}
mark.judged{background:#ddf4ff;outline:2px solid #0969da;color:inherit}
.untranslated{font-style:italic}
a.marker.v-supported{background:var(--ok)}a.marker.v-contradicted{background:var(--bad)}
a.marker.v-no_support{background:var(--warn)}a.marker.v-needs_review{background:var(--odd)}
a[data-verdict]::after{font-size:.75em;vertical-align:super;margin-left:.1em}
a[data-verdict=supported]::after{content:"✓"}a[data-verdict=contradicted]::after{content:"✗"}
a[data-verdict=no_support]::after{content:"∅"}a[data-verdict=needs_review]::after{content:"?"}
article.cit.claim-card{border-left-color:var(--odd)}
article.v-border-supported{border-left-color:var(--ok)!important}article.v-border-contradicted{border-left-color:var(--bad)!important}
article.v-border-no_support{border-left-color:var(--warn)!important}
.small{font-size:.82rem;color:var(--mute)}
.v-supported{background:var(--ok)}.v-contradicted{background:var(--bad)}.v-no_support{background:var(--warn)}
.v-needs_review{background:var(--odd)}
.js-only{display:none}.js .js-only{display:flex}
.hidden{display:none}
.filters label{white-space:nowrap}
@media (max-width:40rem){body{font-size:14px}main{padding:0 .5rem 3rem}header.bar{position:static}
.ctx{max-height:none}table.sources{display:block;overflow-x:auto}}
@media print{header.bar{position:static;background:none}.filters,.keys{display:none!important}
article.cit{break-inside:avoid;border-left-width:4px}.ctx{max-height:none;overflow:visible}
a.marker{color:#000!important;background:none!important;border:1px solid #000}
.badge{color:#000!important;background:none!important;border:1px solid #000}body{font-size:11pt}}
"""

JS = """(function(){
var d=document;d.documentElement.classList.add('js');
var cards=[].slice.call(d.querySelectorAll('article.cit'));
function apply(){
var on={};[].forEach.call(d.querySelectorAll('input[data-filter-status]'),function(b){on[b.value]=b.checked;});
var sel=d.getElementById('f-source'),src=sel?sel.value:'';
cards.forEach(function(c){var ok=on[c.dataset.status]!==false&&(!src||c.dataset.source===src);
c.classList.toggle('hidden',!ok);});}
[].forEach.call(d.querySelectorAll('[data-filter-status],#f-source'),function(e){e.addEventListener('change',apply);});
d.addEventListener('keydown',function(e){
if(e.target&&/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)||e.ctrlKey||e.metaKey||e.altKey)return;
if(e.key!=='j'&&e.key!=='k')return;
var vis=cards.filter(function(c){return !c.classList.contains('hidden');});if(!vis.length)return;
var i=vis.indexOf(d.activeElement);i=e.key==='j'?Math.min(i+1,vis.length-1):Math.max(i<0?0:i-1,0);
vis[i].focus();vis[i].scrollIntoView({block:'start'});e.preventDefault();});
window.addEventListener('beforeprint',function(){[].forEach.call(d.querySelectorAll('details'),function(x){x.open=true;});});
apply();})();"""


def script_hash(js: str = JS) -> str:
    """The CSP source for the inline script: ``'sha256-<base64>'``."""
    digest = hashlib.sha256(js.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def csp() -> str:
    """No network at all; only our own inline style and script."""
    return f"default-src 'none'; style-src 'unsafe-inline'; script-src {script_hash()}; img-src data:"
