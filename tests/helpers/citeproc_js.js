// Render CSL items with citeproc-js (the processor Zotero and Mendeley use), for tests/system/test_interop_citation.py.
// stdin: {"style": CSL XML, "locales": {"en-US": locale XML, …}, "items": [CSL items]}; stdout: JSON list of bibliography entries
// as plain text, in the style's order. Run with NODE_PATH naming the folder that holds node_modules/citeproc.
const CSL = require("citeproc");
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const byId = Object.fromEntries(input.items.map((item) => [item.id, item]));
const sys = { retrieveLocale: (lang) => input.locales[lang] || input.locales["en-US"], retrieveItem: (id) => byId[id] };
const engine = new CSL.Engine(sys, input.style, "en-US");
engine.setOutputFormat("text");
engine.updateItems(input.items.map((item) => item.id));
const [, entries] = engine.makeBibliography();
process.stdout.write(JSON.stringify(entries.map((entry) => entry.trim())));
